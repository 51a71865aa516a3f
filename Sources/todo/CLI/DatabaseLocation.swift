/// Where the todo database lives: `--db`, else `$TODO_DB`, else the XDG data folder.
enum DatabaseLocation {
    /// The path to use, in order of precedence: the `--db` option, `TODO_DB`,
    /// `$XDG_DATA_HOME/todo/todo.sqlite`, `$HOME/.local/share/todo/todo.sqlite`.
    ///
    /// - Throws: a usage error for an empty `--db` (a script's unset variable, which must not
    ///   quietly fall back to the default list); a failure when none of them is set: guessing a
    ///   folder could scatter todo lists.
    static func resolve(option: String?) throws(CLIError) -> String {
        if let option {
            guard !option.isEmpty else {
                throw .usage(
                    "--db needs a path, and it was given an empty one", hint: "For example: --db ~/todo.sqlite")
            }
            return option
        }
        if let path = Environment.value("TODO_DB") { return path }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = Environment.value("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            return dataHome + "/todo/todo.sqlite"
        }
        guard let home = Environment.value("HOME") else {
            throw .failure("cannot find the database: HOME is not set", hint: "Set HOME or TODO_DB, or pass --db PATH.")
        }
        return home + "/.local/share/todo/todo.sqlite"
    }
}
