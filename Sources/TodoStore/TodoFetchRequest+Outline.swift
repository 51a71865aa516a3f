import SQLite

/// The subtask tree of a request's todos, ordered by SQLite: what `todo list` streams from a file
/// with subtasks, holding no row and no table of the todos, so that a list of a million todos
/// costs its output and not a tree in memory.
///
/// The tree's rule stays ``TodoOutline``'s: a todo is under its parent when that parent is among
/// the todos chosen, is not the todo itself, and is in the same list; siblings come in the
/// request's order, each subtree right after its top. Here the rule is the recursive step of a
/// common table expression whose queue is ordered by depth (deepest first: depth first) and then
/// by the request's order terms (``TodoFetchRequest/orderTerms``), so that SQLite hands out the
/// rows in the tree's order. `TodoOutlineSQLTests` checks it against ``TodoOutline`` on random
/// trees.
///
/// A loop of parents, which the schema refuses but a damaged file could hold, has no top for the
/// recursion to start from: its todos are not in ``outlineSQL``'s rows. ``unplacedSQL`` selects
/// them (and what is under them), for ``TodoOutline``'s own arrangement, which cuts the loop.
extension TodoFetchRequest {
    /// Whether ``outlineSQL`` serves this request: one without a limit or an offset, which apply
    /// to the flat order before the tree is made (``TodoRepository/forEachInOutline(_:withContext:_:)``).
    var hasOutlineSQL: Bool { limit == nil && offset == 0 }

    /// The chosen todos in the tree's order: ``TodoColumns/list``, then the depth (0 at the top).
    /// Parameters: ``outlineArguments``.
    ///
    /// The queue carries ids and sort keys only, and each row is read by its id as it leaves
    /// (`CROSS JOIN` keeps `tree` the outer loop, so its order is the rows' order): a queue of
    /// whole rows, notes and all, cost a quarter more at 100,000 todos.
    var outlineSQL: String {
        treeCTE + " SELECT " + TodoColumns.list + ", tree_depth FROM tree CROSS JOIN todos ON todos.id = tree_id"
    }

    /// ``filterArguments`` for each of the three places ``treeCTE`` applies the conditions.
    var outlineArguments: [any SQLiteBindable] { filterArguments + filterArguments + filterArguments }

    /// The chosen todos ``outlineSQL`` does not reach, in the request's order, as
    /// ``TodoOutline/Node`` rows (`id, parent_id, list_id`): those in a loop of parents, and those
    /// under one. Parameters: ``outlineArguments``, then ``filterArguments``.
    var unplacedSQL: String {
        treeCTE + " SELECT id, parent_id, list_id FROM todos"
            + whereClause(adding: "id NOT IN (SELECT tree_id FROM tree)")
            + " ORDER BY " + orderTerms.joined(separator: ", ")
    }

    /// `WITH RECURSIVE tree(...)`: the tops (chosen todos whose parent is not a chosen todo of
    /// their list), then, for each row taken from the queue, the chosen todos under it. The queue
    /// gives the deepest row first, and among rows of one depth the first in the request's order:
    /// a row's subtasks, being deeper than every row waiting, come out right after it, each with
    /// its own subtasks after it. No name of `tree` is one of `todos`, which the conditions name
    /// bare.
    private var treeCTE: String {
        let keys = orderTerms.indices.map { "tree_k\($0)" }
        let columns = ["tree_depth", "tree_id", "tree_list"] + keys
        let values = orderTerms.joined(separator: ", ")
        let parentChosen =
            (["parent.id = todos.parent_id", "parent.id <> todos.id", "parent.list_id IS todos.list_id"]
            + conditions(of: "parent")).joined(separator: " AND ")
        let tops =
            "SELECT 0, id, list_id, \(values) FROM todos"
            + whereClause(adding: "NOT EXISTS (SELECT 1 FROM todos AS parent WHERE \(parentChosen))")
        let under =
            "SELECT tree_depth + 1, id, list_id, \(values) FROM tree JOIN todos"
            + " ON todos.parent_id = tree_id AND todos.id <> tree_id AND todos.list_id IS tree_list"
            + whereClause(adding: nil)
        // By position: a compound SELECT's ORDER BY names its result columns, and a key's
        // collation (the name order's NOCASE) is its expression's in the first SELECT. The
        // `LIMIT -1` (no limit) keeps the ORDER BY: without a LIMIT, SQLite 3.40 dropped it
        // once `tree` was joined (a subquery's ORDER BY may be omitted), and the queue was a
        // plain FIFO, breadth first. TodoOutlineSQLTests would see that again.
        let queue = ["1 DESC"] + keys.indices.map { String($0 + 4) }
        return "WITH RECURSIVE tree(\(columns.joined(separator: ", "))) AS (\(tops) UNION ALL \(under)"
            + " ORDER BY \(queue.joined(separator: ", ")) LIMIT -1)"
    }

    /// ` WHERE ...` of ``conditions`` on `todos`, and `extra` after them.
    private func whereClause(adding extra: String?) -> String {
        let terms = conditions(of: "todos") + (extra.map { [$0] } ?? [])
        return terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")
    }
}
