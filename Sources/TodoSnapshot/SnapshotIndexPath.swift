/// The position of an item in a ``Snapshot``: its section's index and its index inside that section.
///
/// Named apart from Foundation's `IndexPath` so that a file importing both modules stays
/// unambiguous. Ordered by section, then item, which is the order batch updates apply in.
public struct SnapshotIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The index of the section, counted from zero.
    public var section: Int
    /// The index of the item inside its section, counted from zero.
    public var item: Int

    /// Creates an index path from a section index and an item index.
    @inlinable
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders by section first, then by item.
    @inlinable
    public static func < (lhs: SnapshotIndexPath, rhs: SnapshotIndexPath) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }

    /// `[section, item]`, as UIKit prints index paths.
    @inlinable
    public var description: String { "[\(section), \(item)]" }
}
