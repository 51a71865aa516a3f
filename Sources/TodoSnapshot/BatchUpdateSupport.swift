// The two primitives every diff here is built on: the set of items that can stay where they
// are at the least cost, and the remove-then-insert steps of a batch update.

/// Marks the matched items a diff keeps in place: the members of one strictly increasing
/// subsequence of `offsets` chosen so the diff reports as few changes as possible.
///
/// The diffs feed it, in new order, the old offsets of the items present on both sides, and
/// whether each item's content is unchanged. Marked items keep their relative order and stay
/// put (an unchanged one is not reported, a changed one is an update); every other one is a
/// move carrying its new content. So a changed item costs one change wherever it goes, while
/// an unchanged item costs a move only when it is left out. Among the increasing subsequences
/// the one kept is, in this order of priority:
///
/// 1. the one with the most unchanged items, which makes moves plus updates minimal: a deadline
///    change that reorders one todo is one move, not a move of its neighbour plus an update;
/// 2. among those, the one with the most changed items, so an edit in place reads as an update
///    rather than a move;
/// 3. among those, the first found: each item extends, of the best runs that can precede it,
///    the one whose last item comes first in the new list, and the run kept is, of the best
///    runs, the one that ends first in the new list. Any of them is equally minimal; this rule
///    only makes the result deterministic (the same lists always give the same changes).
///
/// A plain longest increasing subsequence (rule 1 with every item unchanged) can pick the
/// wrong one: for `[2, 1]` becoming `[1, 2']` it keeps `2'` and reports a move of `1` plus an
/// update of `2`, two changes where the move of `2` alone suffices.
///
/// A maximum-weight increasing subsequence with weight `count + 1` for an unchanged item and
/// 1 for a changed one (the weights of the changed items never add up to one unchanged item),
/// over a Fenwick tree of prefix maxima indexed by old offset. Items adjacent in the new list
/// with consecutive old offsets form a block that a best run keeps whole or not at all (no
/// other offset fits between them, and every weight is positive), so the tree sees one entry
/// per block: O(n + b log r) time and O(n + r) memory, b being the blocks and r the largest
/// offset plus one (the size of the old list). A few items moved among many unmoved ones make
/// few blocks. O(n) when the offsets are already increasing: then everything stays.
/// Precondition: `offsets` are distinct and not negative; `unchanged` has the same count.
@inlinable
func keptInPlaceMask(offsets: [Int], unchanged: [Bool]) -> [Bool] {
    let count = offsets.count
    guard unchanged.count == count else { fatalError("keptInPlaceMask: one unchanged flag per offset") }
    var bound = 0
    var increasing = true
    // One pass finds both whether the offsets increase and their bound (the largest plus one).
    for index in 0..<count {
        let offset = offsets[index]
        guard offset >= 0 else { fatalError("keptInPlaceMask: negative offset") }
        if offset < bound { increasing = false } else { bound = offset + 1 }
    }
    if increasing { return [Bool](repeating: true, count: count) }
    let heavy = count + 1
    return keptInPlaceMask(offsets: offsets, weights: unchanged.map { $0 ? heavy : 1 }, bound: bound)
}

/// The maximum-weight strictly increasing subsequence of `offsets` (in `0 ..< bound`), as a
/// mask: the core of ``keptInPlaceMask(offsets:unchanged:)``, for callers that weigh items
/// themselves (``SortedSnapshot`` weighs a run of unchanged items as one entry). Ties go as
/// rule 3 there says. Precondition: `offsets` are distinct; weights are positive.
@inlinable
func keptInPlaceMask(offsets: [Int], weights: [Int], bound: Int) -> [Bool] {
    let count = offsets.count
    // Blocks, in new order: the index of each one's first item (plus `count` at the end) and
    // the total weight of its items.
    var blockStarts: [Int] = []
    var blockWeights: [Int] = []
    for index in 0..<count {
        let weight = weights[index]
        if index > 0 && offsets[index] == offsets[index - 1] + 1 {
            blockWeights[blockWeights.count - 1] += weight
        } else {
            blockStarts.append(index)
            blockWeights.append(weight)
        }
    }
    let blockCount = blockWeights.count
    blockStarts.append(count)

    // treeWeight[node] and treeBlock[node]: the best run ending at an offset in the node's
    // range (Fenwick layout, 1-based, a block filed under its first offset) and its last block,
    // the earliest one among equal weights.
    var treeWeight = [Int](repeating: 0, count: bound + 1)
    var treeBlock = [Int](repeating: -1, count: bound + 1)
    var previous = [Int](repeating: -1, count: blockCount)
    var bestWeight = 0
    var bestBlock = -1
    treeWeight.withUnsafeMutableBufferPointer { treeWeight in
        treeBlock.withUnsafeMutableBufferPointer { treeBlock in
            for block in 0..<blockCount {
                let offset = offsets[blockStarts[block]]
                // The best run among offsets below this block's: nodes covering 1...offset.
                var priorWeight = 0
                var priorBlock = -1
                var node = offset
                while node > 0 {
                    let weight = treeWeight[node]
                    if weight > priorWeight || (weight == priorWeight && weight > 0 && treeBlock[node] < priorBlock) {
                        priorWeight = weight
                        priorBlock = treeBlock[node]
                    }
                    node &= node - 1
                }
                previous[block] = priorBlock
                let weight = priorWeight + blockWeights[block]
                if weight > bestWeight {
                    bestWeight = weight
                    bestBlock = block
                }
                // Blocks come in increasing order, so a strict comparison keeps the earliest.
                node = offset + 1
                while node <= bound {
                    if weight > treeWeight[node] {
                        treeWeight[node] = weight
                        treeBlock[node] = block
                    }
                    node += node & -node
                }
            }
        }
    }
    var mask = [Bool](repeating: false, count: count)
    var block = bestBlock
    while block >= 0 {
        for index in blockStarts[block]..<blockStarts[block + 1] { mask[index] = true }
        block = previous[block]
    }
    return mask
}

/// A difference that does not fit the snapshot it is applied to.
///
/// Thrown inside the applying code so the property tests can report the seed of a bad case;
/// the public ``Snapshot/applying(_:)`` turns it into a fatal error with this message, printed
/// in every build (a release build's `precondition` stops without its message).
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
