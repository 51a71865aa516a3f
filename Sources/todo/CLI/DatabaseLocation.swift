#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the todo database lives: `--db`, else `$TODO_DB`, else the XDG data folder.
enum DatabaseLocation {
    /// The path to use, in order of precedence: the `--db` option, `TODO_DB`,
    /// `$XDG_DATA_HOME/todo/todo.sqlite`, `~/.local/share/todo/todo.sqlite`.
    static func resolve(option: String?) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment("TODO_DB") { return path }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            return dataHome + "/todo/todo.sqlite"
        }
        return homeFolder() + "/.local/share/todo/todo.sqlite"
    }

    /// A non-empty environment variable's value.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func homeFolder() -> String {
        if let home = environment("HOME") { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            return String(cString: directory)
        }
        return "."
    }
}
