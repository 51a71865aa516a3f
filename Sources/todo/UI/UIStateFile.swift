import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// What `todo ui` remembers between runs, in a small file: the sections `v` chose and the sort
/// `s` chose, `$XDG_STATE_HOME/todo/ui`, else `~/.local/state/todo/ui` (the XDG place for state
/// that is not worth a backup). One line each: `sections = outline`, `sort = name`.
///
/// Best effort both ways: a missing, unreadable or unknown file or line means the default, and a
/// file that cannot be written (read-only home, no HOME) is not worth failing the ui for.
enum UIStateFile {
    /// What the file holds.
    struct Remembered: Equatable {
        /// The sections shown: both unless `v` chose others.
        var sections: UISections = .both
        /// The sort: ``defaultOrder`` unless `s` chose another.
        var order: TodoFetchRequest.Order = UIStateFile.defaultOrder
    }

    /// The ui's sort before `s` chose one: undone first (then deadline, then id), so that the
    /// first screen holds what is left to do, not done todos of years ago.
    static let defaultOrder = TodoFetchRequest.Order.status

    /// The file's path, nil when neither XDG_STATE_HOME nor HOME says where it goes.
    static var path: String? {
        // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
        if let stateHome = Environment.value("XDG_STATE_HOME"), stateHome.hasPrefix("/") {
            return stateHome + "/todo/ui"
        }
        return Environment.value("HOME").map { $0 + "/.local/state/todo/ui" }
    }

    /// What the file says, each line it lacks (or that names nothing known) its default.
    static func load() -> Remembered {
        var remembered = Remembered()
        // The configuration's reader: one `key = value` form. A file it refuses is the default.
        guard let path, let text = read(path), let entries = try? KeyValueFile.parse(text) else { return remembered }
        if let sections = entries.last(where: { $0.key == "sections" }).flatMap({ UISections(rawValue: $0.value) }) {
            remembered.sections = sections
        }
        if let order = entries.last(where: { $0.key == "sort" }).flatMap({ TodoFetchRequest.Order(rawValue: $0.value) })
        {
            remembered.order = order
        }
        return remembered
    }

    static func loadSections() -> UISections { load().sections }

    /// Remembers `sections`, the sort kept as the file has it.
    static func save(_ sections: UISections) {
        var remembered = load()
        remembered.sections = sections
        save(remembered)
    }

    /// Remembers `order`, the sections kept as the file has them.
    static func save(order: TodoFetchRequest.Order) {
        var remembered = load()
        remembered.order = order
        save(remembered)
    }

    private static func save(_ remembered: Remembered) {
        guard let path else { return }
        makeFolders(for: path)
        try? FileOutput.write(
            "sections = \(remembered.sections.rawValue)\nsort = \(remembered.order.rawValue)\n", to: path)
    }

    /// Creates the folders above `path` that are missing; failures show when writing.
    private static func makeFolders(for path: String) {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            mkdir(folder, 0o700)  // as the XDG base directory spec asks
        }
    }

    /// The file's text (at most 4 KiB: it holds one line), nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < buffer.count {
            let got = buffer.withUnsafeMutableBytes { bytes in
                bytes.baseAddress.map { Glibc.read(descriptor, $0 + count, bytes.count - count) } ?? 0
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
