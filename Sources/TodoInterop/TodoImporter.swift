import TodoStore

/// Reads todos from a file written by `todo export`, taskwarrior or a todo.txt tool.
///
/// Pure parsing: bytes in, ``ImportedTodo`` values out, nothing stored. All or nothing: the
/// first bad record stops the parse with an ``ImportError`` that names it, so the caller can
/// import in one transaction and leave the database untouched on error. A UTF-8 byte order mark
/// at the start is skipped for every format. See ``ImportFormat`` for what each format maps to.
///
/// ```swift
/// let todos = try TodoImporter.parse(bytes, format: .taskwarrior)   // dates in the local zone
/// ```
public enum TodoImporter {
    /// Parses a whole file in `format`.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - format: what wrote it.
    ///   - timeZone: where taskwarrior's UTC instants become calendar dates and times of day: the
    ///     process's zone by default; a fixed offset for reproducible results. Unused by the other formats,
    ///     whose dates are calendar dates already.
    /// - Returns: the todos in file order (skipped records, such as deleted tasks, left out).
    /// - Throws: ``ImportError`` for the first record, line or syntax error found.
    public static func parse(
        _ bytes: [UInt8], format: ImportFormat,
        timeZone: LocalTimeZone = .system
    ) throws(ImportError) -> [ImportedTodo] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ImportError) -> [ImportedTodo] in
            try parse(buffer, format: format, timeZone: timeZone)
        }
    }

    /// Parses a whole file in `format` from memory it does not own (a mapped file, a read
    /// buffer); the same rules and errors as the `[UInt8]` overload.
    public static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, format: ImportFormat,
        timeZone: LocalTimeZone = .system
    ) throws(ImportError) -> [ImportedTodo] {
        try read(buffer, format: format, timeZone: timeZone).todos
    }

    /// ``parse(_:format:timeZone:)``, also giving the UIDs and completion history the file holds,
    /// and counting what it holds that todos cannot keep (a taskwarrior project or tag of more
    /// than one word, a `wait:` date after the due date, a `recur:` in hours, a todo.txt
    /// `rec:2b`...), for the importer to add and report.
    public static func read(
        _ bytes: [UInt8], format: ImportFormat,
        timeZone: LocalTimeZone = .system
    ) throws(ImportError) -> ImportReport {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ImportError) -> ImportReport in
            try read(buffer, format: format, timeZone: timeZone)
        }
    }

    /// ``read(_:format:timeZone:)`` from memory it does not own.
    public static func read(
        _ buffer: UnsafeBufferPointer<UInt8>, format: ImportFormat,
        timeZone: LocalTimeZone = .system
    ) throws(ImportError) -> ImportReport {
        let content = withoutByteOrderMark(buffer)
        switch format {
        case .json: return try TodoJSONReader.parse(content)
        case .taskwarrior: return try TaskwarriorReader.parse(content, timeZone: timeZone)
        case .todotxt: return try TodoTxtReader.parse(content)
        }
    }

    /// `buffer` without a leading UTF-8 byte order mark (EF BB BF), which editors on Windows add.
    static func withoutByteOrderMark(_ buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF else { return buffer }
        return UnsafeBufferPointer(rebasing: buffer[3...])
    }
}
