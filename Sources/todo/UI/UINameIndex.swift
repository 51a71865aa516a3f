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
    /// Every todo's name, then its stored tags (``TodoTags/storage``), then its note, UTF-8, one
    /// after another; ASCII letters in lower case where the todo's three are all ASCII (see
    /// ``isASCII``), so a scan compares bytes as they are.
    private var bytes: [UInt8] = []
    /// `isASCII[i]`: the todo at position `i` has only ASCII in its name, tags and note (its
    /// bytes are lowered); else its bytes are as written and the store's rule reads them.
    private var isASCII: [Bool] = []
    /// `nameEnds[i]` is where the name of the todo at position `i` ends in ``bytes``, and its tags
    /// start.
    private var nameEnds: [Int] = []
    /// `tagEnds[i]` is where the tags of the todo at position `i` end in ``bytes``, and its note
    /// starts.
    private var tagEnds: [Int] = []
    /// `ends[i]` is where the note of the todo at position `i` ends in ``bytes``.
    private var ends: [Int] = []

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
        bytes.reserveCapacity(count * 24)
    }

    private mutating func add(_ todo: Todo) {
        let start = bytes.count
        bytes.append(contentsOf: todo.name.utf8)
        nameEnds.append(bytes.count)
        if !todo.tags.isEmpty { bytes.append(contentsOf: todo.tags.storage.utf8) }
        tagEnds.append(bytes.count)
        if let note = todo.note { bytes.append(contentsOf: note.utf8) }
        ends.append(bytes.count)
        let ascii = !bytes[start...].contains { $0 >= 0x80 }
        isASCII.append(ascii)
        if ascii {
            for offset in start..<bytes.count where bytes[offset] >= 0x41 && bytes[offset] <= 0x5A {
                bytes[offset] |= 0x20
            }
        }
    }

    /// Whether `hay` (ASCII, lowered) contains `needle` (ASCII, folded): the store's rule on
    /// such bytes, ``TodoSearch/matches(name:foldedNeedle:)``, without lowering each byte.
    @inline(__always)
    private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= hay.count else { return false }
        let first = needle[0]
        var start = 0
        let last = hay.count - needle.count
        while start <= last {
            if hay[start] == first {
                var offset = 1
                while offset < needle.count, hay[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The number of todos.
    var count: Int { ends.count }

    /// The positions (in the results' order) of the todos whose names, tags or notes contain
    /// `foldedNeedle`, by the store's rule (``TodoSearch/matches(_:foldedNeedle:)``, on bytes,
    /// each of the three on its own); only among `candidates` (positions, ascending) when given:
    /// a text extending the one they matched.
    func positions(matching foldedNeedle: String, among candidates: [Int]? = nil) -> [Int] {
        var needle = foldedNeedle
        return needle.withUTF8 { needleBytes in
            let needleIsASCII = !needleBytes.contains { $0 >= 0x80 }
            return bytes.withUnsafeBufferPointer { all in
                func matches(_ position: Int) -> Bool {
                    let start = position == 0 ? 0 : ends[position - 1]
                    if needleIsASCII, isASCII[position] {
                        // Lowered bytes and a folded needle: byte for byte, each field on its own.
                        if needleBytes.isEmpty { return true }
                        return Self.contains(
                            UnsafeBufferPointer(rebasing: all[start..<nameEnds[position]]), needleBytes)
                            || Self.contains(
                                UnsafeBufferPointer(rebasing: all[nameEnds[position]..<tagEnds[position]]), needleBytes)
                            || Self.contains(
                                UnsafeBufferPointer(rebasing: all[tagEnds[position]..<ends[position]]), needleBytes)
                    }
                    let name = UnsafeBufferPointer(rebasing: all[start..<nameEnds[position]])
                    if TodoSearch.matches(name: name, foldedNeedle: needleBytes) { return true }
                    if nameEnds[position] < tagEnds[position] {
                        let tags = UnsafeBufferPointer(rebasing: all[nameEnds[position]..<tagEnds[position]])
                        if TodoSearch.matches(name: tags, foldedNeedle: needleBytes) { return true }
                    }
                    guard tagEnds[position] < ends[position] else { return false }
                    let note = UnsafeBufferPointer(rebasing: all[tagEnds[position]..<ends[position]])
                    return TodoSearch.matches(name: note, foldedNeedle: needleBytes)
                }
                if let candidates { return candidates.filter(matches) }
                return (0..<ends.count).filter(matches)
            }
        }
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
