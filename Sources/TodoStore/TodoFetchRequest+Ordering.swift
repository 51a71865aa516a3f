extension TodoFetchRequest.Order {
    /// The columns the order compares, as positions in ``TodoColumns/list``, in `ORDER BY`
    /// order (`id` last): what ``TodoFetchRequest/sql(after:limit:)`` takes as a key.
    var keyColumns: [Int32] {
        switch self {
        case .due: [2, 0]
        case .name: [1, 0]
        case .status: [3, 2, 0]
        case .priority: [4, 2, 0]
        }
    }

    /// Whether `a` comes before `b` in this order: exactly the request's `ORDER BY`, so results
    /// patched in memory match a fresh fetch.
    ///
    /// Mirrors SQLite: `NOCASE` folds ASCII letters only, then compares bytes, the shorter
    /// first on a tie; deadlines compare as their `YYYY-MM-DD` text does; undated sorts last;
    /// every order ends with `id`, so it is total.
    ///
    /// Complexity: O(length of the names) for `.name`, O(1) otherwise.
    public func areInIncreasingOrder(_ a: Todo, _ b: Todo) -> Bool {
        switch self {
        case .due:
            return Self.deadlineThenID(a, b)
        case .name:
            switch Self.compareNoCase(a.name, b.name) {
            case .less: return true
            case .greater: return false
            case .equal: return a.id < b.id
            }
        case .status:
            if a.isDone != b.isDone { return !a.isDone }
            return Self.deadlineThenID(a, b)
        case .priority:
            if a.priority != b.priority { return a.priority.sortKey < b.priority.sortKey }
            return Self.deadlineThenID(a, b)
        }
    }

    private enum Comparison { case less, equal, greater }

    private static func deadlineThenID(_ a: Todo, _ b: Todo) -> Bool {
        switch (a.deadline, b.deadline) {
        case (nil, nil): return a.id < b.id
        case (nil, _): return false
        case (_, nil): return true
        case (let x?, let y?): return x == y ? a.id < b.id : x < y
        }
    }

    /// SQLite's NOCASE collation: ASCII upper case folded to lower case, byte by byte.
    private static func compareNoCase(_ a: String, _ b: String) -> Comparison {
        @inline(__always) func fold(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .equal
            case (nil, _): return .less
            case (_, nil): return .greater
            case (let x?, let y?):
                let (fx, fy) = (fold(x), fold(y))
                if fx != fy { return fx < fy ? .less : .greater }
            }
        }
    }
}
