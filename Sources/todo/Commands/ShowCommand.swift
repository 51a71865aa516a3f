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
            // Every field of TodoField.all, in its order; those shown otherwise than their value
            // in a line of text (TodoText.value) are written here. Times in UTC, as stored and
            // as CalDAV writes them: the same on every device.
            var lines = ["id:        \(todo.id)"]
            for field in TodoField.all {
                let label = field.name + ":" + String(repeating: " ", count: max(1, 10 - field.name.count))
                let text: String
                switch field.name {
                case "name": text = TodoText.sanitized(todo.name)
                case "deadline": text = deadline ?? "none"
                case "done": text = todo.isDone ? "yes" : "no"
                case "tags": text = todo.tags.isEmpty ? "none" : TodoText.sanitized(todo.tags.storage)
                case "note":
                    text =
                        todo.note.map { note in
                            note.split(separator: "\n", omittingEmptySubsequences: false)
                                .map { TodoText.sanitized(String($0)) }.joined(
                                    separator: "\n" + String(repeating: " ", count: 11))
                        } ?? "none"
                case "created": text = todo.created.map(\.description) ?? "unknown"
                case "completed":
                    text = todo.completed.map(\.description) ?? (todo.isDone ? "unknown" : "not done")
                default: text = TodoText.value(field.value(in: todo.fields))
                }
                lines.append(label + text)
            }
            context.out.write(lines.joined(separator: "\n") + "\n")
        }
    )
}
