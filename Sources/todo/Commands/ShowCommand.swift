import TodoStore
import TodoSync

extension Command {
    /// `todo show ID [--json]`: one todo, every field.
    static let show = Command(
        spec: CommandSpec(
            name: "show",
            abstract: "Show one todo.",
            arguments: [.init(name: "id", help: "The id of the todo, as 'todo list' shows it.")],
            options: [.init(name: "--json", value: nil, help: "Print the todo as a JSON object.")],
            examples: ["todo show 3", "todo show 3 --json"]
        ),
        run: { (context) throws(CLIError) in
            guard let id = try context.ids().first else { return }
            let repository = try context.openRepository()
            guard let todo = try context.perform({ () throws(TodoStoreError) in try repository.todo(id: id) }) else {
                throw CLIError(.notFound(ids: [id]), path: "")
            }
            if context.arguments.flag("--json") {
                // The UID is the todo's identity across devices: null until its first sync.
                let uid = try context.perform { () throws(TodoStoreError) in
                    try TodoUIDs(repository: repository).uid(ofTodo: id)
                }
                context.out.write(String(JSON.object(todo).dropLast()) + ", \"uid\": \(JSON.optional(uid))}\n")
                return
            }
            let deadline = context.text(maxID: todo.id).deadlineText(todo)
            // Times in UTC, as stored and as CalDAV writes them: the same on every device.
            let note = todo.note.map { note in
                note.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "\n           " + TodoText.sanitized(String($0)) }.joined()
            }
            context.out.write(
                """
                id:        \(todo.id)
                name:      \(TodoText.sanitized(todo.name))
                deadline:  \(deadline ?? "none")
                done:      \(todo.isDone ? "yes" : "no")
                priority:  \(todo.priority.label)
                tags:      \(todo.tags.isEmpty ? "none" : TodoText.sanitized(todo.tags.storage))
                note:      \(note.map { String($0.dropFirst(12)) } ?? "none")
                created:   \(todo.created.map(\.description) ?? "unknown")
                completed: \(todo.completed.map(\.description) ?? (todo.isDone ? "unknown" : "not done"))

                """)
        }
    )
}
