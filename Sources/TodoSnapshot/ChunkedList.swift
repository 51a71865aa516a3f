/// A list stored as a run of short arrays (chunks), so that a change costs the size of one
/// chunk instead of the size of the list, and a copy shares every chunk it does not change.
///
/// Why: a sorted list of a million todos that gains one todo, while the previous version is
/// still held (a change notification carries both), costs a full copy as one array (every
/// element, retains included) and the shift of half a million elements; here it costs one
/// chunk and the table of chunk starts.
///
/// Complexity, for n elements in c = about n / ``chunkCapacity`` chunks: reading by index
/// O(log c); inserting or removing at an index O(``chunkCapacity`` + c); copying O(1) (the
/// storage is shared until a side changes, then the chunk table, c references, is copied, and
/// each chunk only when it is itself changed); iterating O(n).
public struct ChunkedList<Element>: RandomAccessCollection {
    /// Chunks are cut at this size when built, and split in two when they grow past twice it.
    /// Large enough that the chunk table stays small (about 1,000 chunks at a million), small
    /// enough that shifting the elements inside one stays cheap.
    public static var chunkCapacity: Int { 1_024 }

    /// The chunks, none empty.
    @usableFromInline var chunks: [[Element]]
    /// `starts[c]` is the index of the first element of `chunks[c]`; one entry more than there
    /// are chunks, the last being the count.
    @usableFromInline var starts: [Int]

    /// An empty list.
    @inlinable
    public init() {
        chunks = []
        starts = [0]
    }

    /// A list of `elements`, in order. O(n).
    @inlinable
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { starts[starts.count - 1] }

    /// The element at `index`. O(log c). Precondition: `index` is in range.
    @inlinable
    public subscript(index: Int) -> Element {
        guard index >= 0 && index < endIndex else { fatalError("ChunkedList: index \(index) is out of range") }
        let chunk = chunk(containing: index)
        return chunks[chunk][index - starts[chunk]]
    }

    /// The chunk holding `index` (in `0 ..< count`): the last chunk starting at or before it.
    @inlinable
    func chunk(containing index: Int) -> Int {
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: - Iterating

    /// Walks chunk by chunk: O(1) per element, where indexing would cost O(log c) each.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let chunks: [[Element]]
        @usableFromInline var nextChunk = 0
        /// The chunk being walked, held so each step is one array read.
        @usableFromInline var current: IndexingIterator<[Element]>

        @inlinable
        init(chunks: [[Element]]) {
            self.chunks = chunks
            current = [].makeIterator()
        }

        @inlinable
        public mutating func next() -> Element? {
            while true {
                if let element = current.next() { return element }
                guard nextChunk < chunks.count else { return nil }
                current = chunks[nextChunk].makeIterator()
                nextChunk += 1
            }
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(chunks: chunks) }

    /// Calls `body` with each chunk's elements in turn, in order: a scan that reads elements
    /// in place, without copying each one out (a copy of an element that holds references
    /// costs a retain and a release, most of a cheap per-element test). O(n).
    @inlinable
    public func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        for chunk in chunks { try chunk.withUnsafeBufferPointer(body) }
    }

    /// The elements as one array. O(n).
    @inlinable
    public var array: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for chunk in chunks { result.append(contentsOf: chunk) }
        return result
    }

    /// The elements in `range`, as an array. O(log c + range.count).
    @inlinable
    public func elements(in range: Range<Int>) -> [Element] {
        var result: [Element] = []
        guard !range.isEmpty else { return result }
        result.reserveCapacity(range.count)
        var chunk = chunk(containing: range.lowerBound)
        var index = range.lowerBound
        while index < range.upperBound {
            let start = starts[chunk]
            let end = Swift.min(starts[chunk + 1], range.upperBound)
            result.append(contentsOf: chunks[chunk][(index - start)..<(end - start)])
            index = end
            chunk += 1
        }
        return result
    }

    // MARK: - Changing

    /// Appends `element`. O(1) amortised.
    @inlinable
    public mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkCapacity {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkCapacity)
            starts.append(starts[starts.count - 1])
        }
        chunks[chunks.count - 1].append(element)
        starts[starts.count - 1] += 1
    }

    /// Appends `elements`, filling the last chunk and then new ones. O(k).
    @inlinable
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        // Contiguous elements (an array) are copied a chunk's worth at a time.
        let copied: Void? = elements.withContiguousStorageIfAvailable { buffer in
            var start = 0
            while start < buffer.count {
                if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkCapacity {
                    chunks.append([])
                    chunks[chunks.count - 1].reserveCapacity(Self.chunkCapacity)
                    starts.append(starts[starts.count - 1])
                }
                let room = Self.chunkCapacity - chunks[chunks.count - 1].count
                let end = Swift.min(start + room, buffer.count)
                chunks[chunks.count - 1].append(contentsOf: buffer[start..<end])
                starts[starts.count - 1] += end - start
                start = end
            }
        }
        if copied == nil {
            for element in elements { append(element) }
        }
    }

    /// Inserts `element` so that it is at `index`. O(``chunkCapacity`` + c).
    /// Precondition: `0 ... count`.
    @inlinable
    public mutating func insert(_ element: Element, at index: Int) {
        guard index >= 0 && index <= endIndex else {
            fatalError("ChunkedList: insertion index \(index) is out of range")
        }
        guard !chunks.isEmpty else { return append(element) }
        // At a chunk boundary, the earlier chunk takes it (so appending fills the last chunk).
        let chunk = index == endIndex ? chunks.count - 1 : chunk(containing: index)
        chunks[chunk].insert(element, at: index - starts[chunk])
        for later in (chunk + 1)..<starts.count { starts[later] += 1 }
        if chunks[chunk].count > 2 * Self.chunkCapacity { split(chunk) }
    }

    /// Removes and returns the element at `index`. O(``chunkCapacity`` + c).
    /// Precondition: `index` is in range.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        guard index >= 0 && index < endIndex else { fatalError("ChunkedList: index \(index) is out of range") }
        let chunk = chunk(containing: index)
        let element = chunks[chunk].remove(at: index - starts[chunk])
        for later in (chunk + 1)..<starts.count { starts[later] -= 1 }
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            starts.remove(at: chunk + 1)
        } else if chunks[chunk].count < Self.chunkCapacity / 4 {
            mergeIfSmall(chunk)
        }
        return element
    }

    /// Cuts an oversized chunk in two halves.
    @inlinable
    mutating func split(_ chunk: Int) {
        let half = chunks[chunk].count / 2
        let tail = Array(chunks[chunk][half...])
        chunks[chunk].removeSubrange(half...)
        chunks.insert(tail, at: chunk + 1)
        starts.insert(starts[chunk] + half, at: chunk + 1)
    }

    /// Joins a small chunk to a neighbour when the two fit in one, so deletions do not leave
    /// the table full of slivers.
    @inlinable
    mutating func mergeIfSmall(_ chunk: Int) {
        let limit = Self.chunkCapacity
        if chunk + 1 < chunks.count, chunks[chunk].count + chunks[chunk + 1].count <= limit {
            let next = chunks.remove(at: chunk + 1)
            chunks[chunk].append(contentsOf: next)
            starts.remove(at: chunk + 1)
        } else if chunk > 0, chunks[chunk - 1].count + chunks[chunk].count <= limit {
            let this = chunks.remove(at: chunk)
            chunks[chunk - 1].append(contentsOf: this)
            starts.remove(at: chunk)
        }
    }

    // MARK: - Searching a sorted list

    /// The first index whose element does not come before `element`, for a list sorted by
    /// `areInIncreasingOrder`: where `element` goes. O(log n) comparisons.
    @inlinable
    public func lowerBound(of element: Element, by areInIncreasingOrder: (Element, Element) -> Bool) -> Int {
        lowerBound { areInIncreasingOrder($0, element) }
    }

    /// The first index whose element does not satisfy `comesBefore`, for a list where the
    /// elements that do all come first (a sorted list, and "comes before some value").
    /// O(log n) calls.
    @inlinable
    public func lowerBound(where comesBefore: (Element) -> Bool) -> Int {
        // The first chunk whose last element does not come before, then inside it.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            let chunk = chunks[middle]
            if comesBefore(chunk[chunk.count - 1]) { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return endIndex }
        let chunk = chunks[low]
        var first = 0
        var last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if comesBefore(chunk[middle]) { first = middle + 1 } else { last = middle }
        }
        return starts[low] + first
    }
}

extension ChunkedList: Sendable where Element: Sendable {}

extension ChunkedList: Equatable where Element: Equatable {
    /// Equal when they hold equal elements in the same order, however they are chunked. O(n).
    @inlinable
    public static func == (lhs: ChunkedList, rhs: ChunkedList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}
