import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 35's property test: two devices, each syncing two lists with two collections of one
/// account (Household, the server's first, and Personal), and a phone writing both by plain
/// HTTP, make random moves between the lists, edits and adds while some syncs are killed at a
/// random request; after quiet syncs everything must converge: each todo in exactly one
/// collection and in the list of that collection on every device, with the same name; nothing
/// lost, nothing twice; every line the phone wrote that `todo` does not know still in its
/// object, byte for byte, after every move.
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
    /// The collections (upstream URLs) and the list each is linked to on every device.
    let collections: [(url: String, list: String)]
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
        collections = [(server.todoCollectionURL, "Todos"), (personal, "Personal")]
        devices = [SyncDevice(proxy), SyncDevice(proxy)]
        for index in 0..<4 { try phoneAdd(into: index % 2) }
        for device in devices {
            try device.setUp()
            _ = try device.ok("lists", "new", "Personal")
            let user = device.user.map { ["--user", $0] } ?? []
            let linked = try device.todo(["sync", "setup", proxy.url(personal), "--to", "Personal"] + user)
            guard linked.status == 0 else { throw UnexpectedOutput("setup of Personal: \(linked.stderr)") }
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

    func run(operations: Int) throws {
        for step in 0..<operations {
            let index = Int.random(in: 0..<2, using: &random)
            switch Int.random(in: 0..<13, using: &random) {
            case 0..<3: try deviceMove(index)
            case 3..<5:
                guard let todo = pick(try todos(index)) else { continue }
                try ok(index, ["edit", "\(todo.id)", "--name", "\(todo.key) edited \(step)"])
            case 5: try ok(index, ["add", "\(nextKey("K")) added", "--list", pick(collections)?.list ?? "Todos"])
            case 6..<8: try phoneMove()
            case 8: try phoneAdd(into: Int.random(in: 0..<2, using: &random))
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
        var placed: [String: (list: String, name: String, text: String)] = [:]
        for collection in collections {
            for href in try phone.listing(of: collection.url).keys.sorted() {
                guard let (text, _) = try phone.get(href) else { continue }
                let name = SoakICS.fields(text).name
                let key = String(name.prefix { $0 != " " })
                if let other = placed[key] {
                    failures.append("\(key) is on the server twice: in \(other.list) and \(collection.list)")
                }
                placed[key] = (collection.list, name, text)
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
        // Every device: each todo once, in its collection's list, with its name.
        for index in devices.indices {
            var seen: Set<String> = []
            for todo in try todos(index) {
                if !seen.insert(todo.key).inserted { failures.append("device \(index) holds \(todo.key) twice") }
                guard let there = placed[todo.key] else {
                    failures.append("device \(index) holds \(todo.key), which the server does not")
                    continue
                }
                if there.list != todo.list || there.name != todo.name {
                    failures.append(
                        "device \(index) holds \(todo.key) as '\(todo.name)' in \(todo.list); the server as '\(there.name)' in \(there.list)"
                    )
                }
            }
            for key in placed.keys where !seen.contains(key) { failures.append("device \(index) lacks \(key)") }
        }
        if !failures.isEmpty { failures.append("trace:\n" + trace.suffix(40).joined(separator: "\n")) }
        return failures
    }

    // MARK: Operations

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
            return Listed(id: id, key: String(name.prefix { $0 != " " }), name: name, list: list)
        }
    }

    private func ok(_ index: Int, _ arguments: [String]) throws {
        let result = try devices[index].todo(arguments)
        trace.append("device \(index): todo \(arguments.joined(separator: " ")) -> \(result.status) \(result.stderr)")
        guard result.status == 0 else { throw UnexpectedOutput("device \(index): \(arguments): \(result.stderr)") }
    }

    private func deviceMove(_ index: Int) throws {
        guard let todo = pick(try todos(index)) else { return }
        let other = collections.first { $0.list != todo.list }?.list ?? "Todos"
        try ok(index, ["move", "\(todo.id)", "--to", other])
    }

    private func phoneAdd(into collection: Int) throws {
        let key = nextKey("P")
        let uid = "lists-\(key)"
        let fields = SoakFields(
            name: "\(key) from the phone", deadline: nil, done: false, priority: 0, tags: [], note: nil)
        let href = (URLComponents(string: collections[collection].url)?.path ?? "/") + uid + ".ics"
        let status = try phone.put(href, SoakPhone.newObject(uid: uid, key: key, fields: fields), ifMatch: nil)
        trace.append("phone: add \(key) to \(collections[collection].list) -> \(status)")
        guard (200..<300).contains(status) else { throw UnexpectedOutput("the phone's PUT answered \(status)") }
    }

    /// The phone moves an object to the other collection: deleted there, then written here
    /// with its UID and every line (a refused delete, someone having written first, moves
    /// nothing).
    private func phoneMove() throws {
        let from = Int.random(in: 0..<2, using: &random)
        guard let href = pick(try phone.listing(of: collections[from].url).keys.sorted()),
            let (text, etag) = try phone.get(href)
        else { return }
        let deleted = try phone.delete(href, ifMatch: etag)
        var line = "phone: move \(href) from \(collections[from].list): DELETE \(deleted)"
        if (200..<300).contains(deleted) {
            let target =
                (URLComponents(string: collections[1 - from].url)?.path ?? "/")
                + (href.split(separator: "/").last.map(String.init) ?? "")
            line += ", PUT \(try phone.put(target, text, ifMatch: nil))"
        }
        trace.append(line)
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
        trace.append("device \(index): sync \(termination): \(process.stdout.prefix(600))")
        if killed { return }
        guard termination == .exited(0) else {
            throw UnexpectedOutput("device \(index): sync ended \(termination): \(process.stderr)")
        }
    }
}
