import TodoSnapshot
import TodoStore

// The outline's groupings of todos (`todo list --outline --by ...`, `todo watch --outline`):
// the snapshot layer knows groups, the storage layer knows todos; this is where they meet.

extension TodoGrouping where Record == Todo {
    /// The sample app's outline: "Undone", then "Done", both always shown. A closure, not the
    /// key path `\.isDone`: that one goes through `Todo`'s dynamic member lookup, projected at
    /// run time for every todo of every build.
    public static var byDoneState: Self { .doneState { $0.fields.isDone } }

    /// By priority class (RFC 5545's, as `--priority` filters): "High" (1-4), "Medium" (5),
    /// "Low" (6-9), then "No priority". Only the classes that have todos are shown.
    public static var byPriority: Self {
        .one { todo in
            switch todo.priority.level {
            case .high: TodoGroup(rank: 0, title: "High")
            case .medium: TodoGroup(rank: 1, title: "Medium")
            case .low: TodoGroup(rank: 2, title: "Low")
            case nil: TodoGroup(rank: 3, title: "No priority")
            }
        }
    }

    /// By tag: a group per tag, in the order of the folded words, a todo under each of its tags,
    /// then "No tag". A group is identified by its folded word (the store's rule: `+Work` and
    /// `@work` are one tag) and titled as the first todo listed writes it.
    public static var byTag: Self {
        .several { todo in
            guard !todo.tags.isEmpty else { return [noTag] }
            return todo.tags.map { TodoGroup(rank: 0, key: $0.folded, title: $0.description) }
        }
    }

    /// By list: a group per list that has todos, in the lists' display order (position; lists
    /// another program gave one position, by id), keyed by the list's position and id so that a
    /// rename re-titles its group rather than making another. `lists` are the lists as read now
    /// (``TodoRepository/lists()``); a todo of a list not among them (made since) shows last,
    /// under its id.
    public static func byList(_ lists: [TodoList]) -> Self {
        let groups = Dictionary(
            lists.map { ($0.id, TodoGroup(rank: 0, key: listKey($0.position, $0.id), title: $0.name)) },
            uniquingKeysWith: { first, _ in first })
        return .one { todo in
            groups[todo.listID] ?? TodoGroup(rank: 1, key: listKey(0, todo.listID), title: "#\(todo.listID)")
        }
    }

    /// A list's group key: its position, then its id, each as 19 digits, so that keys sort in
    /// the lists' order and a group keeps its identity while its list is renamed or others are
    /// made or removed (only a new position gives it a new one).
    private static func listKey(_ position: Int64, _ id: Int64) -> String {
        func digits(_ value: Int64) -> String {
            let text = String(max(value, 0))
            return String(repeating: "0", count: max(0, 19 - text.count)) + text
        }
        return digits(position) + ":" + digits(id)
    }

    /// By project: a group per project that todos are in, in the tree's order
    /// (``TodoProject/treeKey``: `Work`, `Work.ClientA`, `Work.ClientB`, `Workshop`), titled by
    /// its whole path as the first todo listed writes it, then "No project". A todo is in the
    /// group of its own project only, so each todo shows once.
    public static var byProject: Self {
        .one { todo in
            guard let project = todo.project else { return TodoGroup(rank: 1, title: "No project") }
            return TodoGroup(rank: 0, key: project.treeKey, title: project.path)
        }
    }

    /// The group of the todos without tags in ``byTag``: last.
    public static var noTag: TodoGroup { TodoGroup(rank: 1, title: "No tag") }

    /// By deadline, as of `today`: "Overdue" (not done, due before today), "Today", "Tomorrow",
    /// "This week" (to `endOfWeek`, the caller's rule for where a week ends), "Later",
    /// "Earlier" (done, due before today), then "No deadline". Only the buckets that have todos
    /// are shown. The buckets are those of `today`: a list kept open past midnight keeps them
    /// until it is built again.
    public static func byDeadline(today: CalendarDate, endOfWeek: CalendarDate) -> Self {
        let today = today.daysSinceEpoch
        let endOfWeek = endOfWeek.daysSinceEpoch
        return .one { todo in
            guard let deadline = todo.deadline?.daysSinceEpoch else { return TodoGroup(rank: 6, title: "No deadline") }
            if deadline < today {
                return todo.isDone ? TodoGroup(rank: 5, title: "Earlier") : TodoGroup(rank: 0, title: "Overdue")
            }
            if deadline == today { return TodoGroup(rank: 1, title: "Today") }
            if deadline == today + 1 { return TodoGroup(rank: 2, title: "Tomorrow") }
            if deadline <= endOfWeek { return TodoGroup(rank: 3, title: "This week") }
            return TodoGroup(rank: 4, title: "Later")
        }
    }
}

extension TodoOutline {
    /// The tree rule (`TodoOutline`) as the snapshot builder's nesting: a group's todos as a
    /// tree of their own, a subtask under its parent when that parent is in the same group (and
    /// list), else at the group's top level; nil (the group as it is) when none of them has a
    /// parent. O(todos of the group).
    public static let nesting: TodoNesting<Todo> = { todos, members in
        // The three fields read in place: a whole todo copied costs a retain and a release of
        // each of its strings.
        TodoOutline.arranged(
            count: members.count,
            nodes: { offset in
                let index = members[offset]
                return Node(id: todos[index].id, parentID: todos[index].parentID, listID: todos[index].listID)
            })
    }
}

extension TodoSnapshotBuilder where Record == Todo {
    /// A builder of the outline grouped by `grouping`, each group's todos nested by the tree
    /// rule (`TodoOutline.nesting`): what `todo list --outline`, `todo watch --outline` and
    /// `todo ui` show.
    public init(nestingTodosBy grouping: TodoGrouping<Todo>) {
        self.init(grouping: grouping, nesting: TodoOutline.nesting)
    }
}
