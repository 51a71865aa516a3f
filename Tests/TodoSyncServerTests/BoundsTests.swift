import Foundation
import TestSupport
import Testing

@testable import todo_sync

#if canImport(Glibc)
    import Glibc
#endif

/// A `todo` beside a `todo-sync` that is the build's run under GNU time (`/usr/bin/time`, which
/// scripts/setup installs): each run of the helper adds one line to a log, its peak resident
/// memory, CPU time, wall time and exit status, read once `todo` has waited for it.
///
/// `todo` runs the `todo-sync` in the folder of its own executable (as /proc/self/exe names it)
/// and no other, so the `todo` here is a hard link (a copy where a link cannot be made) to the
/// build's, and its `todo-sync` a two-line script.
final class MeasuredHelper: @unchecked Sendable {
    /// One run of the helper, as GNU time saw it.
    struct Run: CustomStringConvertible {
        /// The peak resident set, in bytes (`ru_maxrss`).
        let peakRSS: Int
        let userSeconds: Double
        let systemSeconds: Double
        let wallSeconds: Double
        let exitStatus: Int
        /// Set when the helper was killed by a signal (a crash).
        let signal: Int?

        var cpuSeconds: Double { userSeconds + systemSeconds }
        var peakMiB: Double { Double(peakRSS) / Double(1 << 20) }

        var description: String {
            "peak RSS \(String(format: "%.1f", peakMiB)) MiB, CPU \(String(format: "%.2f", cpuSeconds)) s "
                + "(user \(userSeconds), sys \(systemSeconds)), wall \(wallSeconds) s, exit \(exitStatus)"
                + (signal.map { ", killed by signal \($0)" } ?? "")
        }
    }

    let folder = TemporaryFolder()
    /// The `todo` to run.
    var todo: String { folder.file("todo") }
    private var log: String { folder.file("helper.time") }

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw UnexpectedOutput("GNU time (/usr/bin/time) is missing: scripts/setup installs it")
        }
        try ProcessRunner.copyExecutable(from: ProcessRunner.todoBinary, to: todo)
        let script =
            "#!/bin/sh\nexec /usr/bin/time -a -o '\(log)' -f 'peak_kb=%M user=%U sys=%S wall=%e status=%x' '\(HelperSession.binary)'\n"
        let wrapper = folder.file("todo-sync")
        try script.write(toFile: wrapper, atomically: true, encoding: .utf8)
        guard chmod(wrapper, 0o755) == 0 else {
            throw UnexpectedOutput("chmod \(wrapper): \(String(cString: strerror(errno)))")
        }
    }

    /// The helper's runs so far, in order. GNU time writes "Command terminated by signal N" (or
    /// "Command exited with non-zero status N") on the line before a run's own.
    func runs() -> [Run] {
        let text = String(decoding: folder.contents(log) ?? Data(), as: UTF8.self)
        var runs: [Run] = []
        var signal: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Command terminated by signal ") {
                signal = Int(line.split(separator: " ").last ?? "")
                continue
            }
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            guard let kilobytes = fields["peak_kb"].flatMap({ Int($0) }) else { continue }
            runs.append(
                Run(
                    peakRSS: kilobytes * 1024, userSeconds: Double(fields["user"] ?? "") ?? .nan,
                    systemSeconds: Double(fields["sys"] ?? "") ?? .nan,
                    wallSeconds: Double(fields["wall"] ?? "") ?? .nan,
                    exitStatus: Int(fields["status"] ?? "") ?? -1, signal: signal))
            signal = nil
        }
        return runs
    }
}

/// Issue 23's bounds on memory and time, through the real `todo sync`: a device synced with
/// Radicale through the misbehaving proxy, then one sync against an answer that is a
/// decompression bomb, 50 MB of elements, too many elements, 100,000-deep XML, no answer at all,
/// or an answer dripped a byte a second. Each ends with exit status 1 and one `error:` line that
/// names the problem, the database exactly as it was, and a helper that did not crash, stayed
/// under 64 MiB and, while it waited, used no CPU to speak of. `TODO_SYNC_TIMEOUT` makes the waits
/// short; the next sync, with the proxy back to passing everything, completes.
@Suite(
    "Bounds: a hostile answer to todo sync is one error line, nothing changed, the helper under 64 MiB", .timed,
    .hangLimit)
struct BoundsTests {
    /// `TODO_SYNC_TIMEOUT` for these syncs.
    static let timeout = 2
    /// The issue's bound on the helper's peak resident memory.
    static let peakRSSBound = 64 << 20
    /// The most CPU the helper may use in a sync that waits `timeout` seconds for nothing.
    static let idleCPUBound = 0.2

    enum Hostile: String, CaseIterable, Sendable {
        /// About 1 MB that unpacks to 1 GiB (of blanks, inside the multistatus).
        case decompressionBomb
        /// 50 MB of `<D:x/>`, chunked, outside any response.
        case fiftyMegabytesOfElements
        /// 4 MB of `<D:x/>` (666,666 elements), outside any response.
        case tooManyElements
        /// 100,000 nested elements.
        case deepXML
        /// The connection is accepted and the request read, then nothing.
        case neverAnswers
        /// The real answer: its head at once, then its body a byte a second.
        case dripsAByteASecond

        var mode: MisbehavingProxy.Mode {
            switch self {
            case .decompressionBomb: .bomb(megabytes: 1024)
            case .fiftyMegabytesOfElements: .elements(megabytes: 50)
            case .tooManyElements: .elements(megabytes: 4)
            case .deepXML: .deep(depth: 100_000)
            case .neverAnswers: .silent()
            case .dripsAByteASecond: .drip(interval: 1)
            }
        }

        /// What the error line says, in the helper's words.
        var problem: String {
            switch self {
            // A listing is read as it arrives, under the bound on a listing's size (its blanks
            // cost no memory: the helper stays small while it reads them).
            case .decompressionBomb:
                "the answer is larger than \(HTTPClient.maximumListing >> 20) MiB once decompressed"
            case .fiftyMegabytesOfElements, .tooManyElements:
                "the server's XML holds more than \(MultistatusReader.maximumOutsideElements) elements outside its DAV:responses"
            case .deepXML: "the server's XML is nested deeper than \(MultistatusReader.maximumDepth) elements"
            case .neverAnswers: "the server did not answer within \(BoundsTests.timeout) s"
            case .dripsAByteASecond: "the server sent less than 1 KiB in \(BoundsTests.timeout) s"
            }
        }
    }

    @Test(arguments: Hostile.allCases)
    func aHostileAnswerIsOneErrorLineAndChangesNothing(_ hostile: Hostile) throws {
        let began = Date()
        let stage = try HostileServerTests.Stage()
        let device = stage.device
        let helper = try MeasuredHelper()
        device.todoBinary = helper.todo
        let before = try device.dump()
        let names = try device.names()
        try stage.proxy.set(hostile.mode)

        let start = Date()
        let (result, requests) = try stage.proxy.recording {
            // The answers that come are given time to (the decompression bomb took over 2 s on a
            // loaded machine), so that each fails for its own reason; the waiting ones get 2 s.
            let waits = hostile == .neverAnswers || hostile == .dripsAByteASecond
            return try device.todo(["sync"], environment: ["TODO_SYNC_TIMEOUT": "\(waits ? Self.timeout : 30)"])
        }
        let seconds = Date().timeIntervalSince(start)
        #expect(
            requests.contains { $0.mode == hostile.mode.name && $0.kind == "sync-collection" },
            "the proxy spoiled no request: the test proves nothing (\(requests.map(\.kind)))")
        let line = HostileServerTests.expectOneError(result, "\(hostile)")
        #expect(
            line.contains("REPORT") && line.contains("127.0.0.1:\(stage.proxy.port)") && line.contains(hostile.problem),
            "the error line names the request and says \"\(hostile.problem)\": \(line)")
        #expect(try device.dump() == before, "the database is unchanged")
        // A failure guard, not a benchmark: a server that waits is given up after
        // TODO_SYNC_TIMEOUT's seconds, not the default 30. The bound is half the default, so a
        // loaded machine does not fail it; the other answers cost CPU, so their time is not judged.
        if hostile == .neverAnswers || hostile == .dripsAByteASecond {
            #expect(
                seconds < 15,
                "todo sync took \(String(format: "%.1f", seconds)) s with TODO_SYNC_TIMEOUT=\(Self.timeout)")
        }

        let runs = helper.runs()
        #expect(runs.count == 1, "one run of the helper logged: \(runs)")
        if let run = runs.first {
            #expect(run.signal == nil && run.exitStatus == 0, "the helper crashed or failed: \(run)")
            #expect(run.peakRSS <= Self.peakRSSBound, "the helper's peak RSS: \(run)")
            if hostile == .neverAnswers || hostile == .dripsAByteASecond {
                #expect(run.cpuSeconds < Self.idleCPUBound, "the helper used CPU while it waited: \(run)")
            }
        }

        // The server mended: the next sync completes and the todos are the same.
        try stage.proxy.set(.pass)
        let again = try device.todo("sync")
        #expect(again.status == 0, "the sync in pass mode failed: \(again.stderr)")
        #expect(try device.names() == names)
        if let run = helper.runs().dropFirst().first {
            #expect(run.peakRSS <= Self.peakRSSBound, "an ordinary sync: \(run)")
        }
        print(
            "BoundsTests: \(hostile): \(String(format: "%.1f", Date().timeIntervalSince(began))) s in all; todo sync "
                + "\(String(format: "%.2f", seconds)) s; helper \(helper.runs().first.map(\.description) ?? "not run"); \(line)"
        )
    }

    /// A server answering every REPORT with a listing made up on the spot, chunked: `count`
    /// responses of hrefs `/c/` + `pad` x's + a UUID-like name, each with a 42-byte etag
    /// ("listing"); or one response with `count` `<d:x/>` elements in it ("wide").
    static let listingServer = #"""
        import sys
        port, count, pad, mode = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        class Handler(AnswerHandler):
            def do_PROPFIND(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.answer(207, calendar("/c/"))
            def do_REPORT(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(207)
                self.send_header("Content-Type", "application/xml; charset=utf-8")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                def chunk(data): self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
                try:
                    chunk(b'<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">')
                    if mode == "wide":
                        chunk(b"<d:response><d:href>/c/a.ics</d:href>")
                        for _ in range(count // 10000): chunk(b"<d:x/>" * 10000)
                        chunk(b"</d:response>")
                    else:
                        padding, lines = "x" * pad, []
                        for i in range(count):
                            lines.append('<d:response><d:href>/c/%s%08d-0000-4000-8000-000000000000.ics</d:href><d:propstat><d:prop>'
                                         '<d:getetag>"%040x"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>'
                                         '</d:response>\n' % (padding, i, i))
                            if len(lines) == 1000: chunk("".join(lines).encode()); lines = []
                        if lines: chunk("".join(lines).encode())  # an empty chunk would end the body
                    chunk(b"<d:sync-token>http://example.org/sync/2</d:sync-token></d:multistatus>")
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    self.close_connection = True
        serve(Handler, port, "-", "-", 120)
        """#

    /// The helper alone, run under GNU time, asked for the changes since a token of a server
    /// answering with `listingServer` (`count`, `pad`, `mode`): its answer line and peak RSS.
    static func listing(count: Int, pad: Int = 0, mode: String = "listing") throws -> (
        answer: [String: Any], peakRSS: Int
    ) {
        let port = try CalDAVServer.freePort()
        let server = try PythonHTTPServer.start(
            listingServer, [String(port), String(count), String(pad), mode], ports: [port])
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let folder = TemporaryFolder()
        let requests =
            #"{"op":"open","url":"http://127.0.0.1:\#(port)/c/"}"# + "\n" + #"{"op":"changes","token":"t1"}"# + "\n"
        let result = try ProcessRunner.run(
            "/usr/bin/time", ["-f", "%M", "-o", folder.file("peak"), HelperSession.binary],
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], stdin: requests, timeout: 100)
        #expect(
            result.status == 0 && result.stderr.isEmpty,
            "the helper: exit \(result.status), \(result.stderr.prefix(500))")
        let lines = result.stdout.split(separator: "\n")
        guard lines.count == 2,
            let peak = folder.contents(folder.file("peak")).flatMap({
                Int(String(decoding: $0, as: UTF8.self).split(separator: "\n").last ?? "")
            })
        else {
            throw UnexpectedOutput("two answer lines and a peak RSS expected: \(result.stdout.prefix(500))")
        }
        let answer = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any] ?? [:]
        return (answer, peak * 1024)
    }

    /// Issue 23's listings: one of 100,000 todos (hrefs of 60 bytes, etags of 42) is read whole,
    /// the helper under 64 MiB; one whose hrefs and etags pass the bound on what is kept, or one
    /// response of 2,000,000 elements, is a bad_response naming the bound, the helper under 64 MiB.
    @Test func aListingOf100000TodosIsReadUnder64MiB() throws {
        let (answer, peak) = try Self.listing(count: 100_000, pad: 17)
        let changed = answer["changed"] as? [[String: Any]] ?? []
        #expect(
            answer["kind"] as? String == "delta" && changed.count == 100_000
                && answer["token"] as? String == "http://example.org/sync/2",
            "\(String(describing: answer).prefix(500))")
        #expect(
            (changed.last?["href"] as? String)?.utf8.count == 60
                && changed.last?["etag"] as? String == "\"\(String(repeating: "0", count: 35))1869f\"",
            "\(String(describing: changed.last))")
        #expect(peak <= Self.peakRSSBound, "the helper's peak RSS for 100,000 todos: \(peak >> 20) MiB")
        print(
            "BoundsTests: a listing of 100,000 todos: helper peak RSS \(String(format: "%.1f", Double(peak) / Double(1 << 20))) MiB"
        )

        for (count, pad, mode, problem) in [
            (
                1_000_000, 400, "listing",
                "the server lists more than \(ListedMembers.maximumKept >> 20) MiB of hrefs and etags"
            ),
            (2_000_000, 0, "wide", "a DAV:response of more than \(MultistatusReader.maximumResponseElements) elements")
        ] {
            let (answer, peak) = try Self.listing(count: count, pad: pad, mode: mode)
            let error = answer["error"] as? [String: Any]
            let message = error?["message"] as? String ?? ""
            #expect(
                error?["kind"] as? String == "bad_response" && message.hasPrefix("REPORT sync-collection")
                    && message.contains(problem),
                "\(mode): \(String(describing: answer).prefix(500))")
            #expect(peak <= Self.peakRSSBound, "\(mode): the helper's peak RSS: \(peak >> 20) MiB")
            print(
                "BoundsTests: a hostile listing (\(mode)): helper peak RSS \(String(format: "%.1f", Double(peak) / Double(1 << 20))) MiB; \(message)"
            )
        }
    }

    /// A value that is not a whole number of seconds from 1 to 300 is a usage error (exit 2) at
    /// `todo sync` and `todo sync setup`, before the helper runs; an empty one is unset.
    @Test func aBadTimeoutIsAUsageError() throws {
        let helper = try MeasuredHelper()
        let folder = TemporaryFolder()
        func todo(_ arguments: [String], _ value: String) throws -> ProcessResult {
            try ProcessRunner.run(
                helper.todo, arguments,
                environment: [
                    "TODO_DB": folder.file("todo.sqlite"), "HOME": folder.path,
                    "TODO_SYNC_TIMEOUT": value
                ], timeout: 30)
        }
        for value in ["0", "301", "-1", "2s", " 2", "1.5", "1e3", "two", "99999999999999999999999"] {
            for arguments in [["sync"], ["sync", "--json"], ["sync", "setup", "http://127.0.0.1:9/alice/tasks/"]] {
                let result = try todo(arguments, value)
                #expect(
                    result.status == 2,
                    "TODO_SYNC_TIMEOUT=\(value) todo \(arguments): exit \(result.status), \(result.stderr)")
                let lines = result.stderrLines
                #expect(
                    lines.first?.hasPrefix("error: TODO_SYNC_TIMEOUT=") == true
                        && lines.first?.contains("is not a number of seconds from 1 to 300") == true
                        && lines.filter { $0.hasPrefix("error:") }.count == 1,
                    "TODO_SYNC_TIMEOUT=\(value) todo \(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
        #expect(helper.runs().isEmpty, "the helper ran: \(helper.runs())")
        // Unset when empty (as TODO_DB): the sync goes on to say there is no remote.
        let empty = try todo(["sync"], "")
        #expect(empty.status == 1 && empty.stderr.contains("no sync remote"), "\(empty.stderr)")
    }

    /// `todo sync --help` and the manual name the variable.
    @Test func theTimeoutIsDocumented() throws {
        let help = try ProcessRunner.run(ProcessRunner.todoBinary, ["sync", "--help"])
        #expect(help.status == 0 && help.stdout.contains("TODO_SYNC_TIMEOUT=SECONDS (1 to 300)"), "\(help.stdout)")
        let page = try ProcessRunner.run(ProcessRunner.todoBinary, ["manpage"])
        #expect(page.status == 0 && page.stdout.contains(".B TODO_SYNC_TIMEOUT\n"), "\(page.stdout.suffix(3_000))")
    }
}
