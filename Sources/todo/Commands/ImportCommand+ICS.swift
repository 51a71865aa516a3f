import TodoInterop
import TodoStore
import TodoSync

extension Command {
    /// `todo import --from ics`: each VTODO a todo, its UID kept, so that the todo and the
    /// object it came from stay one when the database later syncs with the same calendar. A UID
    /// already known here is skipped: importing a file twice adds its todos once.
    static func importICS(_ bytes: [UInt8], path: String, context: inout CommandContext) throws(CLIError) {
        let reading: ICSFile.Reading
        do {
            reading = try ICSFile.read(bytes)
        } catch {
            throw .failure("\(path == "-" ? "standard input" : path): \(error)", hint: "Nothing was imported.")
        }
        let repository = try context.openRepository()
        let uids = TodoUIDs(repository: repository)
        let (added, skipped) = try context.perform { () throws(TodoStoreError) -> (Int, Int) in
            try repository.recordingUndo("import") { () throws(TodoStoreError) -> (Int, Int) in
                var added = 0
                var skipped = 0
                for entry in reading.entries {
                    // Also a UID twice in the file: the first one recorded it.
                    if try uids.isKnown(entry.uid) {
                        skipped += 1
                        continue
                    }
                    // The reader applied the name rule.
                    let todo = try repository.add(
                        name: entry.fields.name, deadline: entry.fields.deadline,
                        isDone: entry.fields.isDone, nameCheck: .asStored)
                    try uids.record(entry.uid, forTodo: todo.id)
                    added += 1
                }
                return (added, skipped)
            }
        }
        var summary = "Imported \(added) \(added == 1 ? "todo" : "todos")."
        if skipped > 0 {
            summary += " Skipped \(skipped) already here (same UID)."
        }
        if !reading.notKept.isEmpty {
            // As the other formats do: nothing the other app had disappears without a word.
            summary +=
                " Not kept (todos have no place for them): "
                + reading.notKept.map(\.description).joined(separator: ", ") + "."
        }
        context.out.write(summary + "\n")
    }
}
