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
        let (added, skipped) = try addSkippingKnownUIDs(
            reading.entries.map { ($0.fields, $0.uid, $0.history) }, context: context)
        var summary = importSummary(added: added, skipped: skipped) + "."
        if !reading.notKept.isEmpty {
            // As the other formats do: nothing the other app had disappears without a word.
            summary +=
                " Not kept (todos have no place for them): "
                + reading.notKept.map(\.description).joined(separator: ", ") + "."
        }
        context.out.write(summary + "\n")
    }
}

extension Command {
    /// Adds the todos read by an import in one undoable transaction, each with its UID when the
    /// file gave one and its completion history (the occurrences another app finished, logged
    /// as not pending: they are that app's, not this device's to send), and skips a todo whose
    /// UID is already known here (also one twice in the file: the first one recorded it), its
    /// history with it. The one rule for every format that carries UIDs (iCalendar, todo's own
    /// JSON, taskwarrior's uuids), so importing a file twice adds its todos once.
    /// Returns how many were added and skipped.
    static func addSkippingKnownUIDs(
        _ entries: [(fields: TodoFields, uid: String?, history: [ImportedCompletion])], context: CommandContext
    ) throws(CLIError) -> (added: Int, skipped: Int) {
        let repository = try context.openRepository()
        let uids = TodoUIDs(repository: repository)
        return try context.perform { () throws(TodoStoreError) -> (Int, Int) in
            try repository.recordingUndo("import") { () throws(TodoStoreError) -> (Int, Int) in
                var added = 0
                var skipped = 0
                for entry in entries {
                    if let uid = entry.uid, try uids.isKnown(uid) {
                        skipped += 1
                        continue
                    }
                    // The readers applied each format's name rule; names are stored as read, with
                    // every field read (times the file did not give are the import's). A series
                    // whose history reaches its deadline stands at its next occurrence.
                    let fields = RepeatingTodo.movedPast(
                        entry.history.map(\.occurrence), of: entry.fields, completedAt: entry.history.last?.completedAt)
                    let todo = try repository.add(fields, nameCheck: .asStored)
                    if let uid = entry.uid { try uids.record(uid, forTodo: todo.id) }
                    for completion in entry.history {
                        try repository.recordCompletion(completion.completion(ofTodo: todo.id))
                    }
                    added += 1
                }
                return (added, skipped)
            }
        }
    }

    /// `Imported 3 todos`, and `. Skipped 2 already here (same UID)` when some were skipped:
    /// the summary's start, without its final full stop.
    static func importSummary(added: Int, skipped: Int) -> String {
        "Imported \(added) \(added == 1 ? "todo" : "todos")"
            + (skipped > 0 ? ". Skipped \(skipped) already here (same UID)" : "")
    }
}
