import Foundation
import TestSupport
import Testing
import TodoInterop
import TodoStore

/// `todo import --from json`: our own export read back.
@Suite(.timed) struct JSONImportTests {
    @Test func readsOurExport() throws {
        let text = """
            [
              {"id": 3, "name": "Buy milk", "deadline": "2024-05-01", "done": false},
              {"id": 4, "name": "Call \\"Mom\\" ☕", "deadline": null, "done": true},
              {"id": 9, "name": "牛乳を買う", "deadline": "2024-02-29", "done": false}
            ]
            """
        #expect(
            try importing(text, .json) == [
                ImportedTodo(name: "Buy milk", deadline: day("2024-05-01"), isDone: false),
                ImportedTodo(name: "Call \"Mom\" ☕", deadline: nil, isDone: true),
                ImportedTodo(name: "牛乳を買う", deadline: day("2024-02-29"), isDone: false)
            ])
    }

    @Test func defaultsAndIgnoredKeys() throws {
        // Only the name is required; ids are not kept (the database assigns new ones), and keys
        // a newer version may add are ignored. (`priority` and `tags` are known since issue 26:
        // they are read, and checked.)
        let text =
            #"[{"name": "a"}, {"name": "b", "id": "not even a number", "urgency": [1, 2], "x-color": {"x": null}}]"#
        #expect(try importing(text, .json) == [ImportedTodo(name: "a"), ImportedTodo(name: "b")])
        #expect(try importing("[]", .json) == [])
    }

    @Test func keepsNamesExactly() throws {
        let names = [
            "  padded  ", "tab\there", "line\nbreak", "back\\slash", "quote\"", "emoji 👩‍👩‍👧", "\u{FEFF}zero width"
        ]
        let records = names.map { ["name": $0] }
        let data = try JSONSerialization.data(withJSONObject: records)
        let todos = try TodoImporter.parse(Array(data), format: .json)
        #expect(todos.map(\.name) == names)
    }

    @Test func skipsAByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"[{"name": "x"}]"#.utf8)
        #expect(try TodoImporter.parse(bytes, format: .json) == [ImportedTodo(name: "x")])
    }

    @Test(arguments: [
        (
            #"[{"name": "ok"}, {"name": "ok"}, {"name": "x", "deadline": "2024/05/01"}]"#,
            #"record 3: "deadline" is not a YYYY-MM-DD date"#
        ),
        (
            #"[{"name": "x", "deadline": "2023-02-29"}]"#,
            #"record 1: "deadline" 2023-02-29 is not a day in the calendar"#
        ),
        (#"[{"name": "x", "deadline": "2024-5-1"}]"#, #"record 1: "deadline" is not a YYYY-MM-DD date"#),
        (
            #"[{"name": "x", "deadline": 20240501}]"#,
            #"record 1: "deadline" must be a YYYY-MM-DD date or null, found a number"#
        ),
        (#"[{"name": "ok"}, {"deadline": null}]"#, #"record 2: "name" is missing"#),
        (#"[{"name": null}]"#, #"record 1: "name" must be a string, found null"#),
        (#"[{"name": 7}]"#, #"record 1: "name" must be a string, found a number"#),
        (#"[{"name": "x", "done": "yes"}]"#, #"record 1: "done" must be true or false, found a string"#),
        (#"[{"name": "x", "done": 1}]"#, #"record 1: "done" must be true or false, found a number"#),
        (#"[{"name": "x"}, ["x"]]"#, "record 2: expected a todo object, found an array"),
        (#"{"name": "x"}"#, "expected a JSON array of todos (the output of `todo export`), found an object"),
        ("", "line 1, column 1: unexpected end of input, expected a value"),
        ("[\n  {\"name\": \"x\",}\n]", "line 2, column 16: unexpected '}', expected a string key"),
        (#"[{"name": "x", "name": "y"}]"#, #"line 1, column 16: duplicate key "name""#)
    ])
    func namesTheBadRecord(_ text: String, _ message: String) {
        #expect(importError(text, .json)?.description == message)
    }

    @Test func oneBadRecordRefusesTheWholeFile() {
        var records = (1...1000).map { #"{"name": "todo \#($0)"}"# }
        records[997] = #"{"name": "todo 998", "done": null}"#
        let error = importError("[" + records.joined(separator: ",") + "]", .json)
        #expect(error == ImportError(.record(998), #""done" must be true or false, found null"#))
    }

    @Test func formatsHaveTheirOptionNames() {
        #expect(ImportFormat(rawValue: "json") == .json)
        #expect(ImportFormat(rawValue: "taskwarrior") == .taskwarrior)
        #expect(ImportFormat(rawValue: "todotxt") == .todotxt)
        #expect(ImportFormat(rawValue: "csv") == nil)
        #expect(ImportFormat.allCases.map(\.rawValue) == ["json", "taskwarrior", "todotxt"])
    }
}

/// Many records at once: the CLI promises 50,000 todos import in well under a second.
@Suite(.timed) struct LargeImportTests {
    /// A `todo export`-shaped document with `count` todos (about 80 bytes each).
    static func export(count: Int) -> [UInt8] {
        var text = "[\n"
        text.reserveCapacity(count * 90)
        for index in 1...count {
            let deadline =
                index % 3 == 0
                ? "null"
                : "\"2024-\(String(format: "%02d", index % 12 + 1))-\(String(format: "%02d", index % 28 + 1))\""
            text +=
                #"  {"id": \#(index), "name": "Todo number \#(index) with a few words", "deadline": \#(deadline), "done": \#(index % 5 == 0)}"#
            text += index == count ? "\n" : ",\n"
        }
        text += "]\n"
        return Array(text.utf8)
    }

    @Test func fiftyThousandRecordsParse() throws {
        let bytes = Self.export(count: 50_000)
        #expect(bytes.count > 4_000_000)
        let todos = try TodoImporter.parse(bytes, format: .json)
        #expect(todos.count == 50_000)
        #expect(todos[0] == ImportedTodo(name: "Todo number 1 with a few words", deadline: day("2024-02-02")))
        #expect(todos[2].deadline == nil)
        #expect(
            todos[49_999]
                == ImportedTodo(name: "Todo number 50000 with a few words", deadline: day("2024-09-21"), isDone: true))
    }

    @Test func fiftyThousandTodoTxtLinesParse() throws {
        let text = (1...50_000).map {
            "(B) 2024-01-01 Todo \($0) +project @context due:2024-06-\(String(format: "%02d", $0 % 30 + 1))"
        }
        .joined(separator: "\n")
        let todos = try importing(text, .todotxt)
        #expect(todos.count == 50_000)
        #expect(
            todos.last
                == ImportedTodo(
                    name: "Todo 50000", deadline: day("2024-06-21"), priority: TodoPriority(rawValue: 2)!,
                    tags: TodoTags([TodoTag("+project")!, TodoTag("@context")!]),
                    created: UTCTimestamp(iso: "2024-01-01T12:00:00Z")))
    }
}
