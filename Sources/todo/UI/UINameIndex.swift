import TodoObservation
import TodoSnapshot
import TodoStore

/// The names, tags and notes of one version of the controller's results, laid out in one byte
/// array in the results' order, so a filter key scans bytes instead of todos.
///
/// Why: reading a todo's name out of the results copies the todo (a retain and a release of
/// its name), which on a long list made that scan cost a good part of a frame for every key.
/// Built once (O(n)), the index is scanned as plain bytes, a fraction of that cost, and the
/// positions a scan finds narrow the next one while the text grows
/// (``positions(matching:among:)``).
///
/// It describes the results it was built from and no later version: the owner drops it when
/// the controller's results change.
struct UINameIndex {
    /// The results whose names these are.
    let source: UIResults
    /// ``source`` as whole todos (empty for keys).
    var results: TodoResultsSnapshot { source.snapshot ?? TodoResultsSnapshot(order: .due) }
    /// Every todo's name, stored tags (``TodoTags/storage``) and note, UTF-8, each followed by a
    /// zero byte, todo after todo; ASCII letters in lower case where the todo's three are all
    /// ASCII (see ``isASCII``), so a scan compares bytes as they are.
    ///
    /// The zero bytes are why one search can cover a todo's three texts, or the whole array: a
    /// needle without a zero byte cannot match across one, so a match is always inside one text
    /// of one todo, as the store's rule wants (a term never spans two of them).
    private var bytes: [UInt8] = []
    /// `isASCII[i]`: the todo at position `i` has only ASCII in its name, tags and note (its
    /// bytes are lowered); else its bytes are as written and the store's rule reads them.
    private var isASCII: [Bool] = []
    /// The positions whose todos are not all ASCII, ascending: the ones a byte search cannot
    /// judge.
    private var foldedPositions: [Int] = []
    /// `nameEnds[i]` is the zero byte after the name of the todo at position `i`.
    private var nameEnds: [Int] = []
    /// `tagEnds[i]` is the zero byte after the tags of the todo at position `i`.
    private var tagEnds: [Int] = []
    /// `ends[i]` is where the todo at position `i` ends in ``bytes`` (after its note's zero
    /// byte), and the next one starts.
    private var ends: [Int] = []
    /// How often each byte value occurs in the lowered (ASCII) todos: a search looks for a
    /// needle's rarest byte first, so that it stops at fewer places.
    private var byteCounts = [Int](repeating: 0, count: 256)

    /// The index of `results`' names (its one section). O(n).
    init(_ results: TodoResultsSnapshot) {
        source = .todos(results)
        guard results.numberOfSections > 0 else { return }
        let list = results.list(inSection: 0)
        reserve(list.count)
        for todo in list { add(todo) }
    }

    /// The index of key results (a controller's in ``FetchedResultsController/Rows/keys(_:)``,
    /// fetched with `request`): their names, tags and notes read from `repository`, in one pass
    /// over the request in order (a todo that differs from the results there, changed since
    /// and not brought in yet, is read by id). O(n).
    init(keys results: TodoKeyResults, repository: TodoRepository, request: TodoFetchRequest) {
        source = .keys(results)
        reserve(results.count)
        var expected = results.ids.makeIterator()
        var next = expected.next()
        var aligned = true
        try? repository.forEach(request) { todo in
            guard aligned, let id = next else { return }
            guard todo.id == id else {
                aligned = false
                return
            }
            add(todo)
            next = expected.next()
        }
        while let id = next {
            add((try? repository.todo(id: id)) ?? Todo(id: id, TodoFields(name: "")))
            next = expected.next()
        }
    }

    private mutating func reserve(_ count: Int) {
        nameEnds.reserveCapacity(count)
        tagEnds.reserveCapacity(count)
        ends.reserveCapacity(count)
        isASCII.reserveCapacity(count)
        bytes.reserveCapacity(count * 24)
    }

    private mutating func add(_ todo: Todo) {
        let start = bytes.count
        bytes.append(contentsOf: todo.name.utf8)
        nameEnds.append(bytes.count)
        bytes.append(0)
        if !todo.tags.isEmpty { bytes.append(contentsOf: todo.tags.storage.utf8) }
        tagEnds.append(bytes.count)
        bytes.append(0)
        if let note = todo.note { bytes.append(contentsOf: note.utf8) }
        bytes.append(0)
        ends.append(bytes.count)
        let ascii = !bytes[start...].contains { $0 >= 0x80 }
        isASCII.append(ascii)
        guard ascii else {
            foldedPositions.append(ends.count - 1)
            return
        }
        for offset in start..<bytes.count {
            if bytes[offset] >= 0x41 && bytes[offset] <= 0x5A { bytes[offset] |= 0x20 }
            byteCounts[Int(bytes[offset])] += 1
        }
    }

    /// The number of todos.
    var count: Int { ends.count }

    /// The positions (in the results' order) of the todos whose names, tags or notes contain
    /// `foldedNeedle`, by the store's rule (``TodoSearch/matches(_:foldedNeedle:)``, on bytes,
    /// each of the three on its own); only among `candidates` (positions, ascending) when given:
    /// a text extending the one they matched.
    ///
    /// An ASCII needle is found in the lowered bytes by its rarest byte (`memchr`, which reads
    /// many bytes at a time), over the whole array when most todos are candidates, else over
    /// each candidate's bytes; the todos that are not all ASCII go through the store's rule.
    func positions(matching foldedNeedle: String, among candidates: [Int]? = nil) -> [Int] {
        var needle = foldedNeedle
        return needle.withUTF8 { needle in
            if needle.isEmpty { return candidates ?? Array(0..<count) }
            guard needle.allSatisfy({ $0 != 0 && $0 < 0x80 }) else {
                return bytes.withUnsafeBufferPointer { all in
                    (candidates ?? Array(0..<count)).filter { foldedMatch(at: $0, in: all, needle) }
                }
            }
            let search = UINeedle(needle, byteCounts: byteCounts)
            return bytes.withUnsafeBufferPointer { all in
                // Up to half of the todos candidates: a search in each one's bytes. Else one
                // pass over every byte, which costs less than a call per todo when most of them
                // are candidates.
                if let candidates, candidates.count * 2 <= count {
                    return candidates.filter { position in
                        isASCII[position]
                            ? search.occurs(in: all, from: start(of: position), to: ends[position])
                            : foldedMatch(at: position, in: all, needle)
                    }
                }
                var found = asciiMatches(of: search, in: all)
                let folded = foldedPositions.filter { foldedMatch(at: $0, in: all, needle) }
                if !folded.isEmpty { found = Self.merged(found, folded) }
                guard let candidates else { return found }
                return Self.common(found, candidates)
            }
        }
    }

    /// Where the todo at `position` starts in ``bytes``.
    @inline(__always)
    private func start(of position: Int) -> Int { position == 0 ? 0 : ends[position - 1] }

    /// The positions of the all-ASCII todos whose bytes contain `search`, ascending: one search
    /// along the whole array, each hit skipping to the end of its todo.
    private func asciiMatches(of search: UINeedle, in all: UnsafeBufferPointer<UInt8>) -> [Int] {
        var found: [Int] = []
        var position = 0
        var from = 0
        while let hit = search.firstOccurrence(in: all, from: from, to: all.count) {
            // The todo the hit is in: the first whose end is past it (ends ascend, and the last
            // is past every hit). Mostly one of the next few (a common byte is in most todos):
            // steps that double from the last one, then a bisection within the last step.
            var low = position
            var high = position
            var step = 1
            while ends[high] <= hit {
                low = high + 1
                high = min(high + step, ends.count - 1)
                step *= 2
            }
            while low < high {
                let middle = (low + high) / 2
                if ends[middle] > hit { high = middle } else { low = middle + 1 }
            }
            position = low
            if isASCII[position] { found.append(position) }
            from = ends[position]
            position += 1
            if position == ends.count { break }
        }
        return found
    }

    /// The store's rule on the todo at `position`, each of its three texts on its own: for
    /// todos that are not all ASCII, and needles that are not.
    private func foldedMatch(at position: Int, in all: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        let name = UnsafeBufferPointer(rebasing: all[start(of: position)..<nameEnds[position]])
        if TodoSearch.matches(name: name, foldedNeedle: needle) { return true }
        let tags = UnsafeBufferPointer(rebasing: all[(nameEnds[position] + 1)..<tagEnds[position]])
        if !tags.isEmpty, TodoSearch.matches(name: tags, foldedNeedle: needle) { return true }
        let note = UnsafeBufferPointer(rebasing: all[(tagEnds[position] + 1)..<(ends[position] - 1)])
        return !note.isEmpty && TodoSearch.matches(name: note, foldedNeedle: needle)
    }

    /// Two ascending lists of distinct positions as one.
    private static func merged(_ left: [Int], _ right: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(left.count + right.count)
        var (l, r) = (0, 0)
        while l < left.count || r < right.count {
            if r == right.count || (l < left.count && left[l] < right[r]) {
                result.append(left[l])
                l += 1
            } else {
                result.append(right[r])
                r += 1
            }
        }
        return result
    }

    /// The positions in both ascending lists.
    private static func common(_ left: [Int], _ right: [Int]) -> [Int] {
        var result: [Int] = []
        var (l, r) = (0, 0)
        while l < left.count && r < right.count {
            if left[l] == right[r] {
                result.append(left[l])
                l += 1
                r += 1
            } else if left[l] < right[r] {
                l += 1
            } else {
                r += 1
            }
        }
        return result
    }

    /// The results at `positions` (ascending), in order, as results of their own.
    func narrowed(to positions: [Int], order: TodoFetchRequest.Order) -> UIResults {
        switch source {
        case .todos: return .todos(TodoResultsSnapshot(order: order, todos: todos(at: positions)))
        case .keys(let results):
            return .keys(results.subset(at: positions))
        }
    }

    /// The todos at `positions` (ascending), in order. O(m + n / chunk size).
    func todos(at positions: [Int]) -> [Todo] {
        guard results.numberOfSections > 0 else { return [] }
        var todos: [Todo] = []
        todos.reserveCapacity(positions.count)
        var wanted = positions.makeIterator()
        var next = wanted.next()
        var start = 0
        results.list(inSection: 0).forEachChunk { chunk in
            while let position = next, position < start + chunk.count {
                todos.append(chunk[position - start])
                next = wanted.next()
            }
            start += chunk.count
        }
        return todos
    }
}
