import Foundation
import TestSupport
import TodoInterop
import TodoStore

/// The checked-in files under `Fixtures/`, found from this source file's location.
enum Fixture {
    /// The absolute path of the `Fixtures` folder.
    static let folder: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The path of fixture `name`.
    static func path(_ name: String) -> String { folder + "/" + name }

    /// The bytes of fixture `name` (or of any file at an absolute path).
    static func bytes(_ name: String) throws -> [UInt8] {
        let path = name.hasPrefix("/") ? name : path(name)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Whether `program` is on PATH: live tests with the real tools run only then.
    static func isInstalled(_ program: String) -> Bool {
        (try? ProcessRunner.which(program)) != nil
    }
}

/// A date literal for expectations; traps on a typo, which a test then reports.
func day(_ text: String) -> CalendarDate {
    guard let date = CalendarDate(text) else { fatalError("not a date: \(text)") }
    return date
}

/// Parses `text` with the importer.
func importing(_ text: String, _ format: ImportFormat, timeZone: LocalTimeZone = .offset(seconds: 0))
    throws(ImportError) -> [ImportedTodo]
{
    try TodoImporter.parse(Array(text.utf8), format: format, timeZone: timeZone)
}

/// The report of `text` read as `format`: the todos, and what was not kept.
func report(_ text: String, _ format: ImportFormat, timeZone: LocalTimeZone = .offset(seconds: 0)) throws
    -> ImportReport
{
    try TodoImporter.read(Array(text.utf8), format: format, timeZone: timeZone)
}

/// The summary's words for what a report did not keep.
func notKept(_ report: ImportReport) -> [String] {
    report.notKept.map { $0.what.describe($0.count) }
}

/// The error the importer throws for `text`, or `nil` when it accepts it.
func importError(_ text: String, _ format: ImportFormat, timeZone: LocalTimeZone = .offset(seconds: 0)) -> ImportError?
{
    importError(Array(text.utf8), format, timeZone: timeZone)
}

/// The error the importer throws for `bytes`, or `nil` when it accepts them.
func importError(_ bytes: [UInt8], _ format: ImportFormat, timeZone: LocalTimeZone = .offset(seconds: 0))
    -> ImportError?
{
    do {
        _ = try TodoImporter.parse(bytes, format: format, timeZone: timeZone)
        return nil
    } catch {
        return error
    }
}
