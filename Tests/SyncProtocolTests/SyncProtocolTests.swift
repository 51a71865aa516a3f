import JSONCodec
import SyncProtocol
import TestSupport
import Testing

/// The messages between `todo` and `todo-sync`: each one survives encoding, the wire text, and
/// decoding; and decoding refuses, naming the field, whatever is missing, mistyped or unknown.
@Suite(.timed) struct SyncProtocolTests {
    /// Encoded, written as a line, parsed back and decoded: the same message.
    func roundTrip<Message: ProtocolMessage>(_ message: Message) throws {
        let line = message.line
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        let parsed = try JSONParser.parse(Array(line.dropLast()))
        let decoded = try Message(json: parsed)
        #expect(decoded == message)
        #expect(decoded.line == line, "encoded again, the same text")
    }

    /// The decoding error of `json` as a `Message`; records an issue when it decodes.
    func failure<Message: ProtocolMessage>(_ json: JSONValue, as type: Message.Type) -> MessageDecodingError? {
        do {
            let message = try Message(json: json)
            Issue.record("decoded \(json) as \(message)")
            return nil
        } catch {
            return error
        }
    }

    static let error = ErrorObject(
        kind: .redirect, message: "moved \"there\"", status: 301, location: "https://other.example/tasks/")

    @Test func everyRequestRoundTrips() throws {
        let requests: [Request] = [
            .hello, .probe, .discover, .home,
            .open(OpenRequest(url: "https://dav.example/alice/tasks/")),
            .open(
                OpenRequest(
                    url: "https://dav.example/alice/tasks/", user: "alice", passwordCommand: "pass show dav",
                    caFile: "/etc/ca.pem")),
            .open(OpenRequest(url: "https://dav.example/alice/tasks/", timeout: 2)),
            .open(OpenRequest(url: "https://dav.example/alice/tasks/", caFile: "/etc/ca.pem", timeout: 300)),
            .changes(token: nil), .changes(token: "http://radicale.org/ns/sync/1"),
            .fetch(hrefs: []), .fetch(hrefs: ["/alice/tasks/a.ics", "b é.ics"]),
            .write([]),
            .write([
                .create(href: "/t/a.ics", text: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"),
                .update(href: "/t/b.ics", text: "x\u{1}\"\\", etag: "\"2\""),
                .delete(href: "/t/c.ics", etag: "\"3\"")
            ]),
            .makeCollection(MakeCollectionRequest(home: "https://dav.example/alice/", segment: "0A-b", name: "Wörk")),
            .makeCollection(
                MakeCollectionRequest(
                    home: "https://dav.example/alice/", segment: "u.1~", name: "x \"<&>\" 日本", color: "#FF8800")),
            .setCollection(SetCollectionRequest(url: "https://dav.example/alice/w/")),
            .setCollection(SetCollectionRequest(url: "https://dav.example/alice/w/", name: "Renamed")),
            .setCollection(SetCollectionRequest(url: "https://dav.example/alice/w/", color: "#00AA11")),
            .setCollection(SetCollectionRequest(url: "https://dav.example/alice/w/", name: "R", color: "#00AA11")),
            .deleteCollection(url: "https://dav.example/alice/w/")
        ]
        for request in requests { try roundTrip(request) }
        #expect(Set(requests.map(\.op)) == Set(Op.allCases))
    }

    @Test func everyAnswerRoundTrips() throws {
        try roundTrip(HelloAnswer(capabilities: Capability.allCases))
        try roundTrip(HelloAnswer(version: 7, capabilities: ["teleport"]))
        try roundTrip(OKAnswer())
        try roundTrip(ProbeAnswer(syncToken: true, components: ["VTODO", "VEVENT"]))
        try roundTrip(ProbeAnswer(syncToken: false, components: []))
        try roundTrip(
            ChangesAnswer.delta(
                changed: [ListedItem(href: "/t/a.ics", etag: "\"1\""), ListedItem(href: "/t/b.ics", etag: nil)],
                removed: ["/t/c.ics"], token: "t2"))
        try roundTrip(ChangesAnswer.everything(items: [ListedItem(href: "/t/a.ics", etag: nil)], token: nil))
        try roundTrip(ChangesAnswer.everything(items: [], token: "t1"))
        try roundTrip(
            ChangesAnswer.everything(items: [ListedItem(href: "/t/a.ics", etag: "\"1\"")], token: nil, truncated: true))
        try roundTrip(
            FetchAnswer(
                objects: [
                    FetchedObject(href: "/t/a.ics", etag: nil, text: "BEGIN:VCALENDAR\r\n"),
                    FetchedObject(href: "/t/b.ics", etag: "\"9\"", text: "")
                ],
                gone: ["/t/c.ics"], readAlone: ["/t/b.ics"]))
        try roundTrip(FetchAnswer())
        try roundTrip(
            WriteAnswer(outcomes: [
                .written(etag: "\"4\""), .written(etag: nil), .deleted, .preconditionFailed,
                .failed(ErrorObject(kind: .server, message: "PUT: HTTP 500", status: 500)), .notSent
            ]))
        try roundTrip(
            DiscoverAnswer(collections: [
                DiscoveredCollection(url: "https://dav.example/alice/tasks/", name: "Tasks", components: ["VTODO"]),
                DiscoveredCollection(url: "https://dav.example/alice/x/", name: nil, components: [])
            ]))
        try roundTrip(
            DiscoverAnswer(
                collections: [DiscoveredCollection(url: "https://dav.example/alice/x/", name: "X", components: [])],
                home: "https://dav.example/alice/"))
        try roundTrip(
            HomeAnswer(collections: [
                HomeCollection(
                    url: "https://dav.example/alice/tasks/", name: "Tasks", color: "#FF0000FF",
                    components: ["VTODO"], syncToken: "http://radicale.org/ns/sync/1", ctag: "\"2\""),
                HomeCollection(url: "https://dav.example/alice/x/", components: [])
            ]))
        try roundTrip(HomeAnswer(collections: []))
        let state = CollectionState(
            url: "https://dav.example/alice/w/", calendar: true, todos: true, components: ["VTODO"], name: "Wörk",
            color: "#FF8800")
        try roundTrip(
            CollectionAnswer(
                collection: state,
                properties: [
                    PropertyOutcome(property: .name, set: true, status: 200),
                    PropertyOutcome(property: .color, set: false, status: 403),
                    PropertyOutcome(property: .components, set: true, status: nil)
                ]))
        try roundTrip(
            CollectionAnswer(
                collection: CollectionState(
                    url: "http://h/c/", calendar: false, todos: false, components: [], name: nil, color: nil),
                properties: []))
        try roundTrip(DeleteCollectionAnswer(.deleted))
        try roundTrip(DeleteCollectionAnswer(.absent))
        for kind in ErrorKind.allCases {
            try roundTrip(ErrorObject(kind: kind, message: "m", status: nil))
        }
        try roundTrip(Self.error)
        try roundTrip(Reply<OKAnswer>.answer(OKAnswer()))
        try roundTrip(Reply<OKAnswer>.error(Self.error))
        try roundTrip(Reply<WriteAnswer>.error(ErrorObject(kind: .protocol, message: "bad request", status: nil)))
    }

    /// The wire format as it was before these types: field names, shapes, null where absent.
    @Test func theWireFormatIsTodays() {
        func text(_ message: some ProtocolMessage) -> String { String(decoding: message.line, as: UTF8.self) }
        #expect(
            text(Request.open(OpenRequest(url: "http://h/t/")))
                == #"{"op":"open","url":"http://h/t/","user":null,"password_command":null}"# + "\n")
        #expect(
            text(Request.open(OpenRequest(url: "http://h/t/", timeout: 2)))
                == #"{"op":"open","url":"http://h/t/","user":null,"password_command":null,"timeout":2}"# + "\n")
        #expect(text(Request.changes(token: nil)) == #"{"op":"changes","token":null}"# + "\n")
        #expect(text(Request.home) == #"{"op":"home"}"# + "\n")
        #expect(
            text(HomeAnswer(collections: [HomeCollection(url: "http://h/t/", name: "T", syncToken: "s")]))
                == #"{"collections":[{"url":"http://h/t/","name":"T","color":null,"components":["VTODO"],"sync_token":"s","ctag":null}]}"#
                + "\n")
        #expect(
            text(DiscoverAnswer(collections: [], home: "http://h/"))
                == #"{"collections":[],"home":"http://h/"}"# + "\n")
        #expect(text(DiscoverAnswer(collections: [])) == #"{"collections":[]}"# + "\n")
        #expect(
            text(Request.write([.delete(href: "/a", etag: "\"1\"")]))
                == #"{"op":"write","writes":[{"method":"delete","href":"/a","etag":"\"1\""}]}"# + "\n")
        #expect(
            text(HelloAnswer(capabilities: [.caFile, .timeout]))
                == #"{"version":1,"capabilities":["ca_file","timeout"]}"#
                + "\n")
        #expect(
            text(ProbeAnswer(syncToken: true, components: ["VTODO"]))
                == #"{"ok":true,"sync_token":true,"components":["VTODO"]}"# + "\n")
        #expect(
            text(ChangesAnswer.everything(items: [ListedItem(href: "/a", etag: nil)], token: nil))
                == #"{"kind":"everything","items":[{"href":"/a","etag":null}],"token":null}"# + "\n")
        #expect(
            text(WriteAnswer(outcomes: [.preconditionFailed, .notSent]))
                == #"{"outcomes":[{"outcome":"precondition_failed"},{"outcome":"not_sent"}]}"# + "\n")
        #expect(
            text(Reply<OKAnswer>.error(Self.error))
                == #"{"error":{"kind":"redirect","message":"moved \"there\"","status":301,"location":"https://other.example/tasks/"}}"#
                + "\n")
        #expect(
            text(ErrorObject(kind: .notFound, message: "gone", status: nil))
                == #"{"kind":"not_found","message":"gone","status":null}"# + "\n")
    }

    /// The collection requests and answers as `todo` and the companion write them: optional fields
    /// only when given, every answer field always (null where absent).
    @Test func theCollectionMessagesWireFormat() throws {
        func text(_ message: some ProtocolMessage) -> String { String(decoding: message.line, as: UTF8.self) }
        #expect(
            text(Request.makeCollection(MakeCollectionRequest(home: "http://h/a/", segment: "u1", name: "W")))
                == #"{"op":"make_collection","home":"http://h/a/","segment":"u1","name":"W"}"# + "\n")
        #expect(
            text(
                Request.makeCollection(
                    MakeCollectionRequest(home: "http://h/a/", segment: "u1", name: "W", color: "#0A0B0C"))
            ) == ##"{"op":"make_collection","home":"http://h/a/","segment":"u1","name":"W","color":"#0A0B0C"}"## + "\n")
        #expect(
            text(Request.setCollection(SetCollectionRequest(url: "http://h/a/w/", color: "#0A0B0C")))
                == ##"{"op":"set_collection","url":"http://h/a/w/","color":"#0A0B0C"}"## + "\n")
        #expect(
            text(Request.deleteCollection(url: "http://h/a/w/"))
                == #"{"op":"delete_collection","url":"http://h/a/w/"}"# + "\n")
        #expect(
            text(
                CollectionAnswer(
                    collection: CollectionState(
                        url: "http://h/a/w/", calendar: true, todos: true, components: ["VEVENT", "VTODO"], name: nil,
                        color: "#0A0B0C"),
                    properties: [PropertyOutcome(property: .components, set: false, status: 404)]))
                == ##"{"collection":{"url":"http://h/a/w/","calendar":true,"todos":true,"components":["VEVENT","VTODO"],"name":null,"color":"#0A0B0C"},"properties":[{"property":"components","set":false,"status":404}]}"##
                + "\n")
        #expect(text(DeleteCollectionAnswer(.absent)) == #"{"outcome":"absent"}"# + "\n")
        #expect(
            text(ErrorObject(kind: .taken, message: "m", status: 409))
                == #"{"kind":"taken","message":"m","status":409}"# + "\n")
        #expect(text(HelloAnswer(capabilities: Capability.allCases)).contains(#""collections""#))
        // Null is "not given", as absent: nothing to change.
        #expect(
            try Request(json: ["op": "set_collection", "url": "http://h/a/w/", "name": nil, "color": nil])
                == .setCollection(SetCollectionRequest(url: "http://h/a/w/")))
    }

    @Test func aCollectionMessageMissingAFieldOrOfAnotherTypeIsNamed() {
        #expect(
            failure(["op": "make_collection", "home": "http://h/", "name": "W"], as: Request.self)
                == MessageDecodingError(field: "segment", .missing))
        #expect(
            failure(["op": "make_collection", "home": "http://h/", "segment": "u", "name": nil], as: Request.self)
                == MessageDecodingError(field: "name", .wrongType(expected: "a string", found: "null")))
        #expect(
            failure(["op": "set_collection", "url": "http://h/", "color": 0xFF8800], as: Request.self)
                == MessageDecodingError(field: "color", .wrongType(expected: "a string or null", found: "a number")))
        #expect(failure(["op": "delete_collection"], as: Request.self) == MessageDecodingError(field: "url", .missing))
        let state: JSONValue = [
            "url": "http://h/c/", "calendar": true, "todos": true, "components": [], "name": nil, "color": nil
        ]
        #expect(
            failure(["collection": state], as: CollectionAnswer.self)
                == MessageDecodingError(field: "properties", .missing))
        #expect(
            failure(
                ["collection": ["url": "http://h/c/", "calendar": true], "properties": []], as: CollectionAnswer.self)
                == MessageDecodingError(field: "collection.todos", .missing))
        #expect(
            failure(
                ["collection": state, "properties": [["property": "order", "set": true, "status": nil]]],
                as: CollectionAnswer.self)
                == MessageDecodingError(
                    field: "properties[0].property",
                    .unknown("order", known: CollectionProperty.allCases.map(\.rawValue))))
        #expect(
            failure(["collection": state, "properties": [["property": "name", "set": true]]], as: CollectionAnswer.self)
                == MessageDecodingError(field: "properties[0].status", .missing))
        #expect(
            failure(["outcome": "trashed"], as: DeleteCollectionAnswer.self)
                == MessageDecodingError(field: "outcome", .unknown("trashed", known: ["deleted", "absent"])))
    }

    /// Calendar colours as servers and apps write them: read in both forms, the alpha dropped;
    /// anything else is no colour.
    @Test func theCalendarColorRule() {
        #expect(CalendarColor.read("#FF8800") == "#FF8800")
        #expect(CalendarColor.read("#ff8800") == "#FF8800")
        #expect(CalendarColor.read("#1E90FFCC") == "#1E90FF")
        #expect(CalendarColor.read(" #aBcDeF\r\n") == "#ABCDEF")
        for garbage in [
            "", "#", "FF8800", "#FF880", "#FF88001", "#FF8800AA00", "#GG8800", "red", "rgb(1,2,3)", "#FF 880",
            "#ＦＦ8800", "#\u{1b}[31m00", "##FF8800", "#FF8800\u{0}", String(repeating: "#", count: 100_000)
        ] {
            #expect(CalendarColor.read(garbage) == nil, "\(garbage.debugDescription.prefix(40))")
        }
    }

    @Test func aMissingFieldIsNamed() {
        #expect(
            failure(["kind": "delta", "changed": [], "removed": []], as: ChangesAnswer.self)
                == MessageDecodingError(field: "token", .missing))
        #expect(
            failure(["kind": "everything", "items": [["href": "/a"]], "token": nil], as: ChangesAnswer.self)
                == MessageDecodingError(field: "items[0].etag", .missing))
        #expect(
            failure(["objects": [], "gone": []], as: FetchAnswer.self)
                == MessageDecodingError(field: "read_alone", .missing))
        #expect(
            failure(["outcomes": [["outcome": "written", "etag": nil], ["outcome": "failed"]]], as: WriteAnswer.self)
                == MessageDecodingError(field: "outcomes[1].error", .missing))
        #expect(
            failure(
                ["outcomes": [["outcome": "failed", "error": ["kind": "server", "message": "m"]]]], as: WriteAnswer.self
            )
                == MessageDecodingError(field: "outcomes[0].error.status", .missing))
        #expect(failure(["op": "open"], as: Request.self) == MessageDecodingError(field: "url", .missing))
        #expect(
            failure(["op": "write", "writes": [["method": "update", "href": "/a", "text": "x"]]], as: Request.self)
                == MessageDecodingError(field: "writes[0].etag", .missing))
        #expect(failure(["url": "http://h/"], as: Request.self) == MessageDecodingError(field: "op", .missing))
        #expect(failure(["capabilities": []], as: HelloAnswer.self) == MessageDecodingError(field: "version", .missing))
        #expect(failure([:], as: OKAnswer.self) == MessageDecodingError(field: "ok", .missing))
        #expect(
            failure(["ok": true, "sync_token": true], as: ProbeAnswer.self)
                == MessageDecodingError(field: "components", .missing))
        #expect(
            failure(["collections": [["url": "http://h/c/", "components": []]]], as: DiscoverAnswer.self)
                == MessageDecodingError(field: "collections[0].name", .missing))
        #expect(
            failure(["error": ["message": "m", "status": nil]], as: Reply<OKAnswer>.self)
                == MessageDecodingError(field: "error.kind", .missing))
        #expect(MessageDecodingError(field: "token", .missing).description == #"no "token""#)
    }

    @Test func aFieldOfAnotherTypeIsNamed() {
        #expect(
            failure(["outcomes": [["outcome": "written", "etag": 4]]], as: WriteAnswer.self)
                == MessageDecodingError(
                    field: "outcomes[0].etag", .wrongType(expected: "a string or null", found: "a number")))
        #expect(
            failure(["objects": [], "gone": ["/a", nil], "read_alone": []], as: FetchAnswer.self)
                == MessageDecodingError(field: "gone[1]", .wrongType(expected: "a string", found: "null")))
        #expect(
            failure(["objects": "none", "gone": [], "read_alone": []], as: FetchAnswer.self)
                == MessageDecodingError(field: "objects", .wrongType(expected: "an array", found: "a string")))
        #expect(
            failure(
                ["objects": [["href": "/a", "etag": nil, "text": nil]], "gone": [], "read_alone": []],
                as: FetchAnswer.self)
                == MessageDecodingError(field: "objects[0].text", .wrongType(expected: "a string", found: "null")))
        #expect(
            failure(["changed": [1], "removed": [], "token": "t", "kind": "delta"], as: ChangesAnswer.self)
                == MessageDecodingError(field: "changed[0]", .wrongType(expected: "an object", found: "a number")))
        #expect(
            failure(["version": 1.5, "capabilities": []], as: HelloAnswer.self)
                == MessageDecodingError(field: "version", .wrongType(expected: "an integer", found: "a number")))
        #expect(
            failure(["version": "1", "capabilities": []], as: HelloAnswer.self)
                == MessageDecodingError(field: "version", .wrongType(expected: "an integer", found: "a string")))
        #expect(
            failure(["ok": false], as: OKAnswer.self)
                == MessageDecodingError(field: "ok", .wrongType(expected: "true", found: "false")))
        #expect(
            failure(["ok": true, "sync_token": "yes", "components": []], as: ProbeAnswer.self)
                == MessageDecodingError(field: "sync_token", .wrongType(expected: "true or false", found: "a string")))
        #expect(
            failure(["error": ["kind": "auth", "message": "m", "status": "401"]], as: Reply<OKAnswer>.self)
                == MessageDecodingError(
                    field: "error.status", .wrongType(expected: "an integer or null", found: "a string")))
        #expect(
            failure(
                ["error": ["kind": "redirect", "message": "m", "status": 301, "location": 3]], as: Reply<OKAnswer>.self)
                == MessageDecodingError(
                    field: "error.location", .wrongType(expected: "a string or null", found: "a number")))
        #expect(
            failure(["op": "open", "url": "http://h/", "user": false], as: Request.self)
                == MessageDecodingError(field: "user", .wrongType(expected: "a string or null", found: "false")))
        #expect(
            failure(["op": "open", "url": "http://h/", "timeout": "2"], as: Request.self)
                == MessageDecodingError(field: "timeout", .wrongType(expected: "an integer or null", found: "a string"))
        )
        #expect(
            failure(["op": "open", "url": "http://h/", "timeout": 2.5], as: Request.self)
                == MessageDecodingError(field: "timeout", .wrongType(expected: "an integer or null", found: "a number"))
        )
        #expect(
            failure(["op": "fetch", "hrefs": "/a"], as: Request.self)
                == MessageDecodingError(field: "hrefs", .wrongType(expected: "an array", found: "a string")))
        #expect(
            failure(["op": 1], as: Request.self)
                == MessageDecodingError(field: "op", .wrongType(expected: "a string", found: "a number")))
        #expect(
            failure(["a"], as: Request.self)
                == MessageDecodingError(field: "", .wrongType(expected: "an object", found: "an array")))
        #expect(
            failure(["collections": [["url": "http://h/c/", "name": nil, "components": [1]]]], as: DiscoverAnswer.self)
                == MessageDecodingError(
                    field: "collections[0].components[0]", .wrongType(expected: "a string", found: "a number")))
        #expect(
            MessageDecodingError(field: "outcomes[0].etag", .wrongType(expected: "a string or null", found: "a number"))
                .description
                == #""outcomes[0].etag" is a number, not a string or null"#)
    }

    @Test func anUnknownNameIsAnErrorNeverADefault() {
        #expect(
            failure(["kind": "partial", "items": [], "token": nil], as: ChangesAnswer.self)
                == MessageDecodingError(field: "kind", .unknown("partial", known: ["delta", "everything"])))
        #expect(
            failure(["outcomes": [["outcome": "exploded"]]], as: WriteAnswer.self)
                == MessageDecodingError(
                    field: "outcomes[0].outcome",
                    .unknown("exploded", known: WriteAnswer.Outcome.Kind.allCases.map(\.rawValue))))
        #expect(
            failure(["op": "write", "writes": [["method": "move", "href": "/a"]]], as: Request.self)
                == MessageDecodingError(
                    field: "writes[0].method", .unknown("move", known: ["create", "update", "delete"])))
        #expect(
            failure(["op": "dance"], as: Request.self)
                == MessageDecodingError(field: "op", .unknown("dance", known: Op.allCases.map(\.rawValue))))
        #expect(
            failure(["error": ["kind": "teapot", "message": "m", "status": 418]], as: Reply<OKAnswer>.self)
                == MessageDecodingError(
                    field: "error.kind", .unknown("teapot", known: ErrorKind.allCases.map(\.rawValue))))
        #expect(
            failure(
                ["outcomes": [["outcome": "failed", "error": ["kind": "teapot", "message": "m", "status": nil]]]],
                as: WriteAnswer.self)
                == MessageDecodingError(
                    field: "outcomes[0].error.kind", .unknown("teapot", known: ErrorKind.allCases.map(\.rawValue))))
        #expect(
            MessageDecodingError(field: "kind", .unknown("partial", known: ["delta", "everything"])).description
                == #""kind" is "partial", which is none of delta, everything"#)
    }

    /// `timeout` may be left out or null (the companion's defaults); `ca_file` likewise.
    @Test func openOptionsMayBeLeftOutOrNull() throws {
        #expect(
            try Request(json: ["op": "open", "url": "http://h/", "timeout": nil])
                == .open(OpenRequest(url: "http://h/")))
        #expect(
            try Request(json: ["op": "open", "url": "http://h/", "timeout": 7])
                == .open(OpenRequest(url: "http://h/", timeout: 7)))
        #expect(try Request(json: ["op": "open", "url": "http://h/"]) == .open(OpenRequest(url: "http://h/")))
        #expect(OpenRequest.allowedTimeouts == 1...300)
        #expect(HelloAnswer(capabilities: Capability.allCases).supports(.timeout))
    }

    @Test func membersNotInTheProtocolAreIgnoredAndAnErrorWinsOverTheAnswer() throws {
        #expect(try OKAnswer(json: ["ok": true, "later": [1, 2]]) == OKAnswer())
        #expect(
            try Reply<OKAnswer>(json: ["ok": true, "error": ["kind": "auth", "message": "no", "status": 401]])
                == .error(ErrorObject(kind: .auth, message: "no", status: 401)))
        #expect(try HelloAnswer.version(in: ["version": 2, "capabilities": "all of them"]) == 2)
        #expect(try HelloAnswer(json: ["version": 1, "capabilities": ["ca_file", "from_the_future"]]).supports(.caFile))
    }
}
