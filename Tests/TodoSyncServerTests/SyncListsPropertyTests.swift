import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 35's property test: two devices, each syncing every list of one account (at first the
/// server's first collection and Personal; set up with the account's URL), and a phone writing the collections by plain HTTP,
/// make random moves between the lists, edits and adds, make lists (a device's gets its
/// collection at its next sync), and rename and recolour them on either side, while some syncs
/// are killed at a random request. After quiet syncs everything must converge: both devices
/// hold the same lists (names, colours) with the same todos in each; the server holds each todo
/// once, and its collections group the todos as the devices' lists do (a device's list made
/// here has its collection); nothing lost, nothing twice; every line the phone wrote that `todo`
/// does not know still in its object, byte for byte, after every move. (Lists removed on either
/// side are left out: a collection deleted there keeps its list and todos here, on purpose.)
///
/// The phone moves a task as the apps do: the object deleted from one collection (`If-Match`)
/// and written, with its UID and every line, to the other (`If-None-Match: *`). Seeded
/// (``TestSeed``): the operations replay with `TODO_TEST_SEED`; the moment of a kill depends
/// on timing. Bounded: each process has a time limit, waits are on conditions with deadlines,
/// everything runs on loopback.
@Suite(.timed) struct SyncListsPropertyTests {
    /// `TODO_LISTS_OPERATIONS` runs it longer.
    static var operations: Int {
        ProcessInfo.processInfo.environment["TODO_LISTS_OPERATIONS"].flatMap { Int($0) } ?? 30
    }

    @Test(arguments: SyncCLITests.kinds) func movesBetweenListsConvergeThroughKilledSyncs(kind: CalDAVServer.Kind)
        throws
    {
        let seed = TestSeed.make("SyncListsPropertyTests \(kind)")
        let run = try ListsRun(kind: kind, seed: seed)
        defer { run.stop() }
        try run.run(operations: Self.operations)
        let failures = try run.check()
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n")) (replay with TODO_TEST_SEED=\(seed))")
    }
}

/// One run of ``SyncListsPropertyTests``: the server, its proxy (which counts requests, to kill
/// a sync at one), the devices and the phone.
private final class ListsRun {
    let server: CalDAVServer
    let proxy: MisbehavingProxy
    let phone: SoakPhone
    let devices: [SyncDevice]
    /// The account's calendar home (upstream URL).
    let home: String
    private var random: SeededGenerator
    private var counter = 0
    /// Every key made (a device's `K`, the phone's `P`): each must end in exactly one place.
    private var keys: Set<String> = []
    private var trace: [String] = []

    init(kind: CalDAVServer.Kind, seed: UInt64) throws {
        random = SeededGenerator(seed: seed)
        server = try SyncCLITests.start(kind)
        proxy = try MisbehavingProxy(server)
        phone = SoakPhone(server)
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"])
        home = String(personal.dropLast("Personal/".count))
        devices = [SyncDevice(proxy), SyncDevice(proxy)]
        for index in 0..<4 { try phoneAdd(into: index % 2 == 0 ? server.todoCollectionURL : personal) }
        // Set up with the account's URL: every collection linked to the list of its name, and
        // the account followed (lists made on either side get their counterpart).
        for device in devices {
            let user = device.user.map { ["--user", $0] } ?? []
            let linked = try device.todo(["sync", "setup", proxy.url(home)] + user)
            guard linked.status == 0 else { throw UnexpectedOutput("setup: \(linked.stderr)") }
            try device.sync()
        }
    }

    func stop() {
        proxy.stop()
        server.stop()
    }

    private func pick<T>(_ choices: [T]) -> T? { choices.randomElement(using: &random) }

    private func nextKey(_ prefix: String) -> String {
        counter += 1
        let key = "\(prefix)\(counter)"
        keys.insert(key)
        return key
    }

    private func color() -> String { String(format: "#%06X", Int.random(in: 0..<0x100_0000, using: &random)) }

    func run(operations: Int) throws {
        for step in 0..<operations {
            let index = Int.random(in: 0..<2, using: &random)
            switch Int.random(in: 0..<18, using: &random) {
            case 0..<3: try deviceMove(index)
            case 3..<5:
                guard let todo = pick(try todos(index)) else { continue }
                try ok(index, ["edit", "\(todo.id)", "--name", "\(todo.key) edited \(step)"])
            case 5: try ok(index, ["add", "\(nextKey("K")) added", "--list", pick(try lists(index)) ?? "Todos"])
            case 6:
                // A list made here: its collection is made at the next sync (it holds a todo).
                let name = "L\(step)"
                try ok(index, ["lists", "new", name])
                try ok(index, ["lists", "color", name, color()])
                try ok(index, ["add", "\(nextKey("K")) in \(name)", "--list", name])
            case 7:
                guard let list = pick(try lists(index)) else { continue }
                try ok(index, ["lists", "rename", list, "\(list.prefix { $0 != "~" })~\(step)"])
            case 8:
                guard let list = pick(try lists(index)) else { continue }
                try ok(index, ["lists", "color", list, color()])
            case 9..<11: try phoneMove()
            case 11: try phoneAdd(into: pick(try collections().map(\.url)) ?? server.todoCollectionURL)
            case 12: try phoneSet(name: true, step: step)
            case 13: try phoneSet(name: false, step: step)
            default:
                try sync(
                    index,
                    killAt: Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...6, using: &random) : nil)
            }
        }
        // Quiet: each device twice, in turn, so that what one sends the other takes in.
        for _ in 0..<2 {
            for index in devices.indices { try sync(index, killAt: nil) }
        }
    }

    /// What must hold at the end; the failures, each with the trace's end when there are some.
    func check() throws -> [String] {
        var failures: [String] = []
        // The server, as the phone reads it: every key in exactly one collection.
        var placed: [String: (collection: String, text: String)] = [:]
        var serverGroups: [String: Set<String>] = [:]
        for collection in try collections() {
            for href in try phone.listing(of: collection.url).keys.sorted() {
                guard let (text, _) = try phone.get(href) else { continue }
                let key = Self.key(SoakICS.fields(text).name)
                if let other = placed[key] {
                    failures.append("\(key) is on the server twice: in \(other.collection) and \(collection.url)")
                }
                placed[key] = (collection.url, text)
                serverGroups[collection.url, default: []].insert(key)
            }
        }
        for key in keys.sorted() where placed[key] == nil { failures.append("\(key) is lost from the server") }
        // The phone's lines, byte for byte, through every move.
        for (key, object) in placed where key.hasPrefix("P") {
            let lines = Set(SoakICS.unfolded(object.text))
            for line in SoakPhone.unknownLines(key: key) where !lines.contains(line) {
                failures.append("\(key) lost the line \(line):\n\(object.text)")
            }
        }
        // The devices: each todo once; the same lists, names and colours, with the same todos;
        // grouped as the server's collections group them.
        var views: [[String: Set<String>]] = []
        for index in devices.indices {
            var seen: Set<String> = []
            var groups: [String: Set<String>] = [:]
            for todo in try todos(index) {
                if !seen.insert(todo.key).inserted { failures.append("device \(index) holds \(todo.key) twice") }
                groups[todo.list, default: []].insert(todo.key)
            }
            for key in placed.keys where !seen.contains(key) { failures.append("device \(index) lacks \(key)") }
            for key in seen where placed[key] == nil {
                failures.append("device \(index) holds \(key), which the server does not")
            }
            views.append(groups)
            let partition = Set(groups.values.filter { !$0.isEmpty })
            if partition != Set(serverGroups.values) {
                failures.append(
                    "device \(index) groups the todos as \(groups.mapValues { $0.sorted() }), the server as \(serverGroups.mapValues { $0.sorted() })"
                )
            }
        }
        if views.count == 2, views[0] != views[1] {
            failures.append(
                "the devices' lists differ: \(views[0].mapValues { $0.sorted() }) and \(views[1].mapValues { $0.sorted() })"
            )
        }
        let colors = try devices.indices.map { try listColors($0) }
        if colors.count == 2, colors[0] != colors[1] { failures.append("the devices' colours differ: \(colors)") }
        if !failures.isEmpty { failures.append("trace:\n" + trace.suffix(40).joined(separator: "\n")) }
        return failures
    }

    // MARK: What each side holds

    static func key(_ name: String) -> String { String(name.prefix { $0 != " " }) }

    struct Listed {
        let id: Int
        let key: String
        let name: String
        let list: String
    }

    private func todos(_ index: Int) throws -> [Listed] {
        let json = try devices[index].ok("list", "--all", "--json")
        return try parseJSON(json, as: [[String: Any]].self).compactMap { todo in
            guard let id = todo["id"] as? Int, let name = todo["name"] as? String, let list = todo["list"] as? String
            else { return nil }
            return Listed(id: id, key: Self.key(name), name: name, list: list)
        }
    }

    /// The names of the lists of device `index` that sync.
    private func lists(_ index: Int) throws -> [String] {
        try parseJSON(try devices[index].ok("lists", "--json"), as: [[String: Any]].self).compactMap { list in
            list["synced"] as? Bool == true ? list["name"] as? String : nil
        }
    }

    /// Each synced list's colour on device `index`, by name.
    private func listColors(_ index: Int) throws -> [String: String] {
        var colors: [String: String] = [:]
        for list in try parseJSON(try devices[index].ok("lists", "--json"), as: [[String: Any]].self)
        where list["synced"] as? Bool == true {
            colors[list["name"] as? String ?? ""] = list["color"] as? String ?? "none"
        }
        return colors
    }

    /// The calendar collections of the home, as the phone lists them (URL, display name).
    private func collections() throws -> [(url: String, name: String)] {
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><propfind xmlns="DAV:"><prop><resourcetype/><displayname/></prop></propfind>"#
        let answer = try server.request(
            "PROPFIND", home, body: Data(body.utf8),
            headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"])
        guard answer.status == 207 else { throw UnexpectedOutput("PROPFIND of the home answered \(answer.status)") }
        let text = String(decoding: answer.body, as: UTF8.self)
        return SoakPhone.elements("response", in: text).compactMap { response in
            guard response.contains("calendar"), !response.contains("schedule-"),
                let href = SoakPhone.elements("href", in: response).first.map(SoakPhone.xmlUnescaped),
                let path = URLComponents(string: href)?.path, path != URLComponents(string: home)?.path
            else { return nil }
            let name = SoakPhone.elements("displayname", in: response).first.map(SoakPhone.xmlUnescaped) ?? ""
            return (server.base + path, name)
        }
    }

    // MARK: Operations

    private func ok(_ index: Int, _ arguments: [String]) throws {
        let result = try devices[index].todo(arguments)
        trace.append("device \(index): todo \(arguments.joined(separator: " ")) -> \(result.status) \(result.stderr)")
        guard result.status == 0 else { throw UnexpectedOutput("device \(index): \(arguments): \(result.stderr)") }
    }

    private func deviceMove(_ index: Int) throws {
        guard let todo = pick(try todos(index)),
            let other = pick(try lists(index).filter { $0 != todo.list })
        else { return }
        try ok(index, ["move", "\(todo.id)", "--to", other])
    }

    private func phoneAdd(into collection: String) throws {
        let key = nextKey("P")
        let uid = "lists-\(key)"
        let fields = SoakFields(
            name: "\(key) from the phone", deadline: nil, done: false, priority: 0, tags: [], note: nil)
        let href = (URLComponents(string: collection)?.path ?? "/") + uid + ".ics"
        let status = try phone.put(href, SoakPhone.newObject(uid: uid, key: key, fields: fields), ifMatch: nil)
        trace.append("phone: add \(key) to \(collection) -> \(status)")
        guard (200..<300).contains(status) else { throw UnexpectedOutput("the phone's PUT answered \(status)") }
    }

    /// The phone moves an object to another collection: deleted there, then written here with
    /// its UID and every line (a refused delete, someone having written first, moves nothing).
    private func phoneMove() throws {
        let all = try collections()
        guard let from = pick(all), let to = pick(all.filter { $0.url != from.url }),
            let href = pick(try phone.listing(of: from.url).keys.sorted()),
            let (text, etag) = try phone.get(href)
        else { return }
        let deleted = try phone.delete(href, ifMatch: etag)
        var line = "phone: move \(href) to \(to.url): DELETE \(deleted)"
        if (200..<300).contains(deleted) {
            let target =
                (URLComponents(string: to.url)?.path ?? "/") + (href.split(separator: "/").last.map(String.init) ?? "")
            line += ", PUT \(try phone.put(target, text, ifMatch: nil))"
        }
        trace.append(line)
    }

    /// The phone renames a collection (or recolours it), as the apps do: one PROPPATCH.
    private func phoneSet(name: Bool, step: Int) throws {
        guard let collection = pick(try collections()) else { return }
        let value =
            name
            ? "<D:displayname>\(collection.name.prefix { $0 != "~" })~p\(step)</D:displayname>"
            : "<A:calendar-color>\(color())</A:calendar-color>"
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propertyupdate xmlns:D="DAV:" xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop>\(value)</D:prop></D:set></D:propertyupdate>
            """
        let status = try server.request(
            "PROPPATCH", collection.url, body: Data(body.utf8),
            headers: ["Content-Type": "application/xml; charset=utf-8"]
        ).status
        trace.append("phone: PROPPATCH \(collection.url) \(value) -> \(status)")
    }

    /// `todo sync` of device `index`; killed (its process group) once the proxy has answered
    /// `killAt` of its requests, when given. A sync that was not killed must succeed.
    private func sync(_ index: Int, killAt: Int?) throws {
        let device = devices[index]
        let target = proxy.requestCount + (killAt ?? 0)
        let process = try GroupProcess(
            device.todoBinary, ["sync", "--json"], environment: device.environment,
            output: device.folder.file("sync.out"))
        var killed = false
        if let killAt, process.waitUntil(timeout: 60, { proxy.requestCount >= target }) {
            process.killGroup()
            killed = true
            trace.append("device \(index): sync killed at request \(killAt)")
        }
        guard let termination = process.wait(timeout: 120) else {
            process.killGroup()
            _ = process.wait(timeout: 10)
            throw UnexpectedOutput("device \(index): a sync did not end within 120 s")
        }
        trace.append(
            "device \(index): sync \(termination): \(process.stdout.prefix(600)) \(process.stderr.prefix(300))")
        if killed { return }
        guard termination == .exited(0) else {
            throw UnexpectedOutput("device \(index): sync ended \(termination): \(process.stderr)")
        }
    }
}
