// The two primitives every diff here is built on: the longest run of items that can stay
// where they are, and the remove-then-insert steps of a batch update.

/// Marks the members of one longest strictly increasing subsequence of `values`.
///
/// The diffs feed it the old positions of the matched items in new order: the marked ones keep
/// their relative order and stay put, every other one must move, and no smaller set of moves
/// exists. Patience sorting, O(n log n) time and O(n) memory; O(n) when the values are already
/// mostly increasing, since an append to the last pile skips the binary search.
@inlinable
func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    let count = values.count
    var mask = [Bool](repeating: false, count: count)
    guard count > 0 else { return mask }
    // tails[l] is the index of the smallest value ending an increasing run of length l + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: count)
    for index in 0..<count {
        let value = values[index]
        if let last = tails.last, values[last] >= value {
            var low = 0
            var high = tails.count - 1
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            previous[index] = low > 0 ? tails[low - 1] : -1
            tails[low] = index
        } else {
            previous[index] = tails.last ?? -1
            tails.append(index)
        }
    }
    var index = tails.last ?? -1
    while index >= 0 {
        mask[index] = true
        index = previous[index]
    }
    return mask
}

/// A difference that does not fit the list or snapshot it is applied to.
///
/// Thrown inside the applying code so the property tests can report the seed of a bad case;
/// the public `applying` functions turn it into a precondition failure with this message.
@usableFromInline
struct BatchUpdateMismatch: Error, CustomStringConvertible {
    @usableFromInline let description: String

    @inlinable
    init(_ description: String) {
        self.description = description
    }
}

/// Removes the elements at the given offsets, as removing them one by one from the highest
/// would. O(n + k).
///
/// Throws when an offset is out of range or given twice; `context` names the caller.
@inlinable
func removingElements<T>(of array: [T], at offsets: [Int], context: String) throws(BatchUpdateMismatch) -> [T] {
    guard !offsets.isEmpty else { return array }
    var doomed = [Bool](repeating: false, count: array.count)
    for offset in offsets {
        guard array.indices.contains(offset) else {
            throw BatchUpdateMismatch("\(context): removal index \(offset) is out of bounds")
        }
        guard !doomed[offset] else {
            throw BatchUpdateMismatch("\(context): removal index \(offset) is reported twice")
        }
        doomed[offset] = true
    }
    var kept: [T] = []
    kept.reserveCapacity(array.count - offsets.count)
    for offset in array.indices where !doomed[offset] { kept.append(array[offset]) }
    return kept
}

/// Inserts elements so each lands at its index, as inserting them one by one from the lowest
/// index would. O(n + k log k).
///
/// Throws when two indexes are equal or one does not fit (at or past the final count);
/// `context` names the caller.
@inlinable
func insertingElements<T>(
    _ insertions: [(index: Int, element: T)], into array: [T], context: String
) throws(BatchUpdateMismatch) -> [T] {
    guard !insertions.isEmpty else { return array }
    let sorted = insertions.sorted { $0.index < $1.index }
    let total = array.count + sorted.count
    var result: [T] = []
    result.reserveCapacity(total)
    var next = 0
    for insertion in sorted {
        guard insertion.index >= result.count && insertion.index < total else {
            throw BatchUpdateMismatch(
                "\(context): insertion index \(insertion.index) is reported twice or out of bounds")
        }
        while result.count < insertion.index {
            result.append(array[next])
            next += 1
        }
        result.append(insertion.element)
    }
    result.append(contentsOf: array[next...])
    return result
}
