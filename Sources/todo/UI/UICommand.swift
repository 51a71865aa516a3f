import TodoObservation
import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

extension Command {
    /// `todo ui`: the sample app's screen in the terminal, live.
    static let ui = Command(
        spec: CommandSpec(
            name: "ui",
            abstract: "Browse and edit the list full-screen; changes from any program appear live.",
            options: [
                .init(
                    name: "--sort", value: "order",
                    help:
                        "status (undone first, then by deadline: the default), due, name or priority; s cycles them,"
                        + " and the sort s chose is the next run's default."),
                .init(
                    name: "--search", value: "text",
                    help:
                        "Start filtered to names, tags or notes containing the text; given again, every text must match."
                        + " / changes the filter: each word typed must match."),
                .init(
                    name: "--by", value: "group",
                    help: "Group the outline by done (the default), priority, tag, due or list, as 'todo list --by'.")
            ] + CommandContext.filterOptions + [CommandContext.allOption],
            discussion: """
                Shows the "All" section, then the "Outline" section with its "Undone" and "Done" groups
                (or those of --by; by tag, a todo shows under each of its tags).
                Keys: up/down or j/k move; space or Enter toggles done; Enter or left/right folds a group;
                e edits; d deletes (asks first); a adds (a name, then a deadline); s sorts (status,
                priority, due, name); / filters; v shows All, Outline or both (the sort and the
                sections are kept for the next run in $XDG_STATE_HOME/todo/ui, by default
                ~/.local/state/todo/ui); u undoes; l shows every list, then each list in turn
                (the header names the list shown); m moves the todo to another list (type its name, Tab
                completes it; u undoes); ? lists the keys (j/k scroll them); Ctrl-Z suspends (fg resumes); q or Ctrl-C
                quits. Prompts edit like a shell line: left/right, Home/End or Ctrl-A/Ctrl-E, Delete,
                Ctrl-U, Ctrl-W.
                Where there are several lists and every list is shown, rows name their list, as in
                'todo list'. With --by list, a list renamed by any program is re-titled at once.
                Needs a terminal (not TERM=dumb). TODO_UI_STATS=FILE writes drawing statistics and the
                time each key took to draw at exit.
                """,
            examples: ["todo ui", "todo ui --sort name", "todo ui --by priority", "todo ui --list Groceries --by list"]
        ),
        run: { (context) throws(CLIError) in
            guard context.out.isTerminal else {
                throw .usage(
                    "'todo ui' needs a terminal, and standard output is not one",
                    hint: "In scripts and pipes use 'todo list' or 'todo watch'.")
            }
            guard Terminal.stdinIsTerminal else {
                throw .usage(
                    "'todo ui' needs a terminal, and standard input is not one",
                    hint: "In scripts and pipes use 'todo list' or 'todo watch'.")
            }
            // A dumb terminal (Emacs shell buffers, some CI logs) cannot move the cursor or
            // switch screens: the full-screen escape sequences would arrive as garbage.
            guard Environment.value("TERM") != "dumb" else {
                throw .usage(
                    "'todo ui' needs a terminal that can move the cursor, and TERM=dumb cannot",
                    hint: "Use 'todo list' or 'todo watch', or set TERM to your terminal's type.")
            }
            var request = try context.fetchRequest()
            // Without --sort, the sort s chose last time, else undone first (UIStateFile).
            if context.arguments.value("--sort") == nil { request.order = UIStateFile.load().order }
            context.hideNotStarted(&request)
            // The ui always shows an outline: --by only chooses its groups.
            let repository = try context.openRepository()
            request.lists = try context.listIDs(in: repository)
            let grouping = try context.outlineGrouping(in: repository) ?? .byDoneState
            // Watching from before the first read, so that no commit falls between the two.
            let events = UIEvents()
            do throws(DatabaseFileMonitor.Failure) {
                try events.start(databasePath: repository.connection.path)
            } catch {
                throw CLIError(error)
            }
            // Rows name their list by `todo list`'s rule, asked again as the lists or the list
            // shown change.
            let rowContext = context
            let app = try context.perform { () throws(TodoStoreError) in
                try UIApp(
                    repository: repository, request: request, style: context.style,
                    today: context.today, dueTimes: context.dueTimes, databasePath: repository.connection.path,
                    grouping: grouping, groupsByList: context.groupsByList,
                    // What the grouping compares beyond what places a todo (see `TodoKeyColumns`).
                    keyExtra: context.arguments.value("--by") == "tag"
                        ? .tags : context.arguments.value("--by") == "project" ? .project : [],
                    rowListNames: { (request, repository) throws(TodoStoreError) in
                        try rowContext.text(for: request, in: repository).listNames
                    })
            }
            do throws(TerminalMode.Failure) {
                try TerminalMode.enter()
            } catch {
                events.stop()
                throw .failure(error.message)
            }
            let stopSignal = withExtendedLifetime(app) { app.run(events) }
            events.stop()
            TerminalMode.restore()
            if let path = Environment.value("TODO_UI_STATS") {
                UIStats.write(app.screen.statsLine + app.keyStatsLine, to: path)
            }
            // A stop signal ends the process as the shell expects: 128 + the signal's number.
            if let stopSignal { throw .stopped(by: stopSignal) }
        }
    )
}

/// The `TODO_UI_STATS` file: drawing statistics and each key's time, for tests and benchmarks.
enum UIStats {
    /// Best effort: statistics that cannot be written are not worth failing the ui for.
    static func write(_ text: String, to path: String) {
        try? FileOutput.write(text, to: path)
    }
}
