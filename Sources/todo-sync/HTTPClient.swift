import CCurl
import CCurlShim
import Glibc

/// One HTTP request: a method, a URL at the collection's origin, header lines, a body, and the
/// most bytes its answer's body may have once decompressed.
struct HTTPRequest {
    var method: String
    var url: HTTPURL
    var headers: [String] = []
    var body: [UInt8]?
    var maximumAnswer = HTTPClient.maximumBody
    /// Where a 207 answer's body goes as it arrives, instead of into the answer (which then has
    /// none): up to `maximumAnswer` bytes. Another status's body is the answer's, up to
    /// ``HTTPClient/maximumBody``.
    var sink: BodySink?
}

/// Takes an answer's body as curl delivers it (a streaming parser): memory is then the sink's.
protocol BodySink: AnyObject {
    /// A body begins (a new answer: anything from an earlier one, before an authentication
    /// round trip, is forgotten).
    func begin()
    /// The next bytes; an error ends the request with it.
    func consume(_ bytes: UnsafeRawBufferPointer) throws(HelperError)
}

/// One HTTP answer (the last one, after any authentication round trip curl made).
struct HTTPAnswer {
    let status: Int
    let headers: [(name: String, value: String)]
    /// The body; none when it went to the request's sink.
    let body: [UInt8]

    func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.last { $0.name.lowercased() == lower }?.value
    }
}

/// HTTP over libcurl: one multi handle (one connection pool: keep-alive, HTTP/2 multiplexing
/// where the server speaks it over TLS) and a few reusable easy handles, one per request in flight.
///
/// Every request goes to the origin the client was made for; redirects are never followed;
/// credentials are given to curl as user and password (never in a URL) for Basic or Digest,
/// which curl answers when the server challenges; answers are bounded in size and time.
final class HTTPClient {
    struct Settings {
        var user: String?
        var password: String?
        /// A CA bundle (PEM) instead of the system's.
        var caFile: String?
        /// The authentication schemes offered to the server (CURLAUTH_ bits). Basic alone is
        /// sent with the first request (no round trip to learn the scheme: an idle sync stays one
        /// request); Basic or Digest lets curl ask without credentials first and answer the
        /// server's challenge. See ``init(settings:origin:)``.
        var authentication = todo_curlauth_basic_digest()
        /// How long to wait for the server.
        var timeouts = Timeouts()
    }

    /// How long a request waits for the server: to connect, and then for each stretch of
    /// ``stall`` seconds to move at least ``HTTPClient/minimumProgress`` bytes (sent and received
    /// together). One number for both when the user sets it (`TODO_SYNC_TIMEOUT`, as git's
    /// `http.lowSpeedTime`); a request never takes longer than ``HTTPClient/requestTimeout``.
    struct Timeouts {
        /// Seconds to connect (TCP, and TLS over it).
        var connect = 10
        /// Seconds in which a request, once connected, must move ``HTTPClient/minimumProgress``
        /// bytes: a server that never answers, or drips its answer a byte at a time, is given up
        /// after this long, not after ``HTTPClient/requestTimeout``.
        var stall = 30

        init() {}

        /// The same `seconds` for both.
        init(seconds: Int) {
            connect = seconds
            stall = seconds
        }
    }

    /// The most bytes of one answer's body, after decompression, unless its request says
    /// otherwise: a PROPFIND's or a calendar-multiget's multistatus (read as it arrives, within
    /// ``MultistatusReader``'s bounds for `.properties`), or an answer of another status, kept
    /// whole. What a server answers to these requests then costs the helper at most this much.
    static let maximumBody = 8 << 20
    /// The most bytes of a listing's body (a 207 answer to sync-collection or calendar-query),
    /// after decompression: read as it arrives (see ``MultistatusReader``), it costs no memory of
    /// its own, so this bounds the time a server can keep the helper parsing, with room for a
    /// listing of ``MultistatusReader/maximumResponses`` short responses.
    static let maximumListing = 256 << 20
    /// The most bytes of one object fetched alone by GET (its text, after decompression): a
    /// VTODO with a long description or an inline attachment is read whole, up to this. Such an
    /// object is in memory a few times over (its body, its text, the JSON answer), so the helper
    /// may then take about four times this.
    static let maximumObject = 64 << 20
    /// The most bytes of one answer's header lines.
    static let maximumHeaders = 1 << 20
    /// Less than this many bytes in ``Timeouts/stall`` seconds, and a request is abandoned: a
    /// server that drips its answer is given up as soon as one that sends nothing.
    static let minimumProgress = 1024
    /// The longest one request may take in all.
    static let requestTimeout = 300

    private var settings: Settings
    private let multi: UnsafeMutableRawPointer
    private var idle: [Transfer] = []

    /// Credentials go to `origin` only. Over https, or to a loopback host, Basic is sent at once
    /// (the password is as safe there as a Digest exchange keeps it); a 401 that offers Digest
    /// switches to negotiation and the request is sent again. Over plain http to another host,
    /// curl negotiates from the start, so a Digest server never sees the password in clear.
    init(settings: Settings, origin: HTTPURL) {
        HTTPClient.setUpLibrary()
        var settings = settings
        if origin.scheme == "https" || ["127.0.0.1", "localhost", "[::1]"].contains(origin.host) {
            settings.authentication = todo_curlauth_basic()
        }
        self.settings = settings
        multi = curl_multi_init()
        // Multiplex (HTTP/2) when the server can; at most a few connections to it.
        _ = todo_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = todo_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 8)
    }

    deinit {
        idle.removeAll()  // each easy handle is cleaned up by its Transfer (none is in the multi now)
        curl_multi_cleanup(multi)
    }

    /// `todo-sync/1 libcurl/7.88.1`, as the curl tool names itself.
    static let userAgent = "todo-sync/1 libcurl/" + String(cString: todo_curl_version_number())

    /// curl_global_init, once per process (a lazily initialised static is thread-safe).
    private static let libraryReady: Void = { curl_global_init(todo_curl_global_all()) }()

    private static func setUpLibrary() { _ = libraryReady }

    /// The CA bundle to use: the one given, else `CURL_CA_BUNDLE`, else `SSL_CERT_FILE` (as the
    /// curl tool reads them), else curl's built-in default.
    static func caFile(given: String?) -> String? {
        if let given, !given.isEmpty { return given }
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
            if let value = Environment.value(name), !value.isEmpty { return value }
        }
        return nil
    }

    /// Learns from an answer how to authenticate from now on, and says whether the request must
    /// be sent again. After a challenge for Basic alone was passed, Basic is sent at once; a 401
    /// to Basic sent at once that offers Digest switches to negotiation, and that request goes again.
    private func learnAuthentication(_ transfer: Transfer, _ result: Result<HTTPAnswer, HelperError>) -> Bool {
        guard settings.user != nil, case .success(let answer) = result else { return false }
        var offered = 0
        _ = todo_curl_getinfo_long(transfer.handle, CURLINFO_HTTPAUTH_AVAIL, &offered)
        if settings.authentication == todo_curlauth_basic() {
            // curl fills CURLINFO_HTTPAUTH_AVAIL only for schemes it was asked to negotiate: read
            // the challenge itself.
            let challenges = answer.headers.filter { $0.name.lowercased() == "www-authenticate" }
            guard answer.status == 401, challenges.contains(where: { $0.value.lowercased().hasPrefix("digest") }) else {
                return false
            }
            settings.authentication = todo_curlauth_basic_digest()
            return true
        }
        if answer.status != 401, offered & todo_curlauth_basic() != 0, offered & todo_curlauth_digest() == 0 {
            settings.authentication = todo_curlauth_basic()
        }
        return false
    }

    /// Sends one request and waits for its answer.
    func send(_ request: HTTPRequest) throws(HelperError) -> HTTPAnswer {
        var result: Result<HTTPAnswer, HelperError>?
        run(
            count: 1, inFlight: 1, request: { _ in request },
            done: { _, answer in
                result = answer
                return true
            })
        switch result! {
        case .success(let answer): return answer
        case .failure(let error): throw error
        }
    }

    /// Runs `count` requests, at most `inFlight` at once, built by `request(index)` when they
    /// start; `done(index, result)` is called as each ends and returns whether to start more.
    /// A request that cannot be built is done with its error, unsent.
    func run(
        count: Int, inFlight: Int, request: (Int) throws(HelperError) -> HTTPRequest,
        done: (Int, Result<HTTPAnswer, HelperError>) -> Bool
    ) {
        var next = 0
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        var going = true
        while true {
            while going && active.count < inFlight && next < count {
                let index = next
                next += 1
                do {
                    let built = try request(index)
                    let transfer = idle.popLast() ?? Transfer(settings: settings)
                    if settings.user != nil {
                        _ = todo_curl_setopt_long(transfer.handle, CURLOPT_HTTPAUTH, settings.authentication)
                    }
                    transfer.start(built, index: index)
                    active[transfer.handle] = transfer
                    curl_multi_add_handle(multi, transfer.handle)
                } catch {
                    if !done(index, .failure(error)) { going = false }
                }
            }
            if active.isEmpty { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var finished = false
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: handle)
                else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                finished = true
                let result = transfer.finish(code)
                if learnAuthentication(transfer, result), let again = try? request(transfer.index) {
                    // The same request with the scheme the server asked for (at most once: the
                    // authentication is no longer Basic alone), on a new handle: curl keeps a
                    // failed authentication's state on the handle that met it.
                    let retry = Transfer(settings: settings)
                    retry.start(again, index: transfer.index)
                    active[retry.handle] = retry
                    curl_multi_add_handle(multi, retry.handle)
                    continue
                }
                idle.append(transfer)
                if !done(transfer.index, result) { going = false }
            }
            // Requests that stopped moving end here, with their error; their handle goes (and
            // its connection is closed with it).
            let now = MonotonicClock.now()
            var wake = now + 1_000_000_000
            for (handle, transfer) in Array(active) {
                switch transfer.progress(at: now) {
                case .stalled(let error):
                    active[handle] = nil
                    curl_multi_remove_handle(multi, handle)
                    finished = true
                    if !done(transfer.index, .failure(error)) { going = false }
                case .checkAgain(let time):
                    wake = min(wake, time)
                }
            }
            if !finished && !active.isEmpty {
                // Sleeps until a socket is ready, curl's own timer is due or a request's progress
                // is to be checked; no busy waiting.
                let milliseconds = wake > now ? (wake - now + 999_999) / 1_000_000 : 1
                curl_multi_poll(multi, nil, 0, Int32(clamping: min(max(milliseconds, 1), 1000)), nil)
            }
        }
    }
}

/// One easy handle and what its current request brings back.
private final class Transfer {
    let handle: UnsafeMutableRawPointer
    var index = 0
    private var request: HTTPRequest?
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var headerBytes = 0
    /// Whether the answer's head has ended (its blank line came). libcurl 7.88 takes a connection
    /// closed inside the head, before a Content-Length, for the end of an answer with an empty
    /// body, and reports no error: the head's end tells such a cut from an answer.
    private var headEnded = false
    private var body: [UInt8] = []
    private var tooLarge = false
    /// Body bytes given to the request's sink, whether it was begun, and the error it threw.
    private var streamed = 0
    private var sinkBegun = false
    private var sinkError: HelperError?
    private let timeouts: HTTPClient.Timeouts
    /// When the request started, and the bytes received for it (header lines, and the body as
    /// delivered): for ``progress(at:)``.
    private var started: UInt64 = 0
    private var receivedBytes = 0
    /// The start of the current stretch of ``HTTPClient/Timeouts/stall`` seconds, and the bytes
    /// moved by then; `nil` while connecting.
    private var checkpoint: (time: UInt64, moved: Int, received: Int)?
    private var connectedAt: UInt64 = 0
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(settings: HTTPClient.Settings) {
        handle = curl_easy_init()
        timeouts = settings.timeouts
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = todo_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = todo_curl_setopt_write(
            handle,
            { data, size, count, context in
                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().received(data, size * count)
            }, context)
        _ = todo_curl_setopt_header(
            handle,
            { data, size, count, context in
                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().receivedHeader(data, size * count)
            }, context)
        long(CURLOPT_NOSIGNAL, 1)
        _ = todo_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        long(CURLOPT_FOLLOWLOCATION, 0)
        long(CURLOPT_UNRESTRICTED_AUTH, 0)
        // Connecting is curl's to time; a stalled answer is ``progress(at:)``'s (curl's own
        // low-speed check averages over a few seconds, the request's upload included, so that a
        // server dripping a byte a second was held several seconds past the limit).
        long(CURLOPT_CONNECTTIMEOUT, timeouts.connect)
        long(CURLOPT_TIMEOUT, HTTPClient.requestTimeout)
        long(CURLOPT_TCP_KEEPALIVE, 1)
        long(CURLOPT_PIPEWAIT, 1)
        _ = todo_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // any that curl decodes
        _ = todo_curl_setopt_string(handle, CURLOPT_USERAGENT, HTTPClient.userAgent)
        if let user = settings.user {
            long(CURLOPT_HTTPAUTH, settings.authentication)
            _ = todo_curl_setopt_string(handle, CURLOPT_USERNAME, user)
            _ = todo_curl_setopt_string(handle, CURLOPT_PASSWORD, settings.password ?? "")
        }
        if let caFile = HTTPClient.caFile(given: settings.caFile) {
            _ = todo_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func long(_ option: CURLoption, _ value: Int) {
        _ = todo_curl_setopt_long(handle, option, value)
    }

    func start(_ request: HTTPRequest, index: Int) {
        self.request = request
        self.index = index
        status = 0
        headers = []
        headerBytes = 0
        headEnded = false
        body = []
        tooLarge = false
        streamed = 0
        sinkBegun = false
        sinkError = nil
        started = MonotonicClock.now()
        receivedBytes = 0
        checkpoint = nil
        connectedAt = 0
        errorBuffer[0] = 0
        _ = todo_curl_setopt_string(handle, CURLOPT_URL, request.url.string)
        _ = todo_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumAnswer))
        curl_slist_free_all(headerList)
        headerList = nil
        for line in request.headers + ["Expect:"] { headerList = curl_slist_append(headerList, line) }
        _ = todo_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
        if let body = request.body {
            _ = todo_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                _ = todo_curl_setopt_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)))
            }
        } else {
            long(CURLOPT_HTTPGET, 1)
        }
        _ = todo_curl_setopt_string(
            handle, CURLOPT_CUSTOMREQUEST,
            request.method == "GET" || (request.method == "POST" && request.body != nil) ? nil : request.method)
    }

    fileprivate func received(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        receivedBytes += count
        if let sink = request?.sink, status == 207 {
            guard streamed + count <= request?.maximumAnswer ?? HTTPClient.maximumBody else {
                tooLarge = true
                return 0
            }
            streamed += count
            if !sinkBegun {
                sinkBegun = true
                sink.begin()
            }
            guard let data, count > 0 else { return count }
            do throws(HelperError) {
                try sink.consume(UnsafeRawBufferPointer(start: data, count: count))
            } catch {
                sinkError = error
                return 0  // curl stops with CURLE_WRITE_ERROR
            }
            return count
        }
        let bound =
            request.map { $0.sink == nil ? $0.maximumAnswer : min($0.maximumAnswer, HTTPClient.maximumBody) }
            ?? HTTPClient.maximumBody
        guard body.count + count <= bound else {
            tooLarge = true
            return 0  // curl stops with CURLE_WRITE_ERROR
        }
        if let data, count > 0 {
            body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        }
        return count
    }

    fileprivate func receivedHeader(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        headerBytes += count
        receivedBytes += count
        guard headerBytes <= HTTPClient.maximumHeaders else {
            tooLarge = true
            return 0
        }
        guard let data, count > 0 else { return count }
        // Read as bytes: a String per line and String searches cost a visible share of a
        // request's CPU.
        var line = UnsafeRawBufferPointer(start: data, count: count)[...]
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { line.removeLast() }
        if line.isEmpty {
            headEnded = true
        } else if line.starts(with: "HTTP/".utf8) {
            // A new answer (after a 100 Continue or an authentication challenge): start afresh.
            headEnded = false
            headers = []
            body = []
            streamed = 0
            sinkBegun = false
            status = StatusLine.code(in: line) ?? 0
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            headers.append(
                (
                    String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self),
                    String(decoding: UnsafeRawBufferPointer(rebasing: value), as: UTF8.self)
                ))
        }
        return count
    }

    enum Progress {
        /// Moving, or still connecting: check again at this time (monotonic nanoseconds).
        case checkAgain(UInt64)
        /// Less than ``HTTPClient/minimumProgress`` bytes in the last stretch: the request ends.
        case stalled(HelperError)
    }

    /// Whether the request still moves at `now` (monotonic nanoseconds): once connected, each
    /// stretch of ``HTTPClient/Timeouts/stall`` seconds must move at least
    /// ``HTTPClient/minimumProgress`` bytes, sent and received together. Counted from the moment
    /// the connection was ready, exactly: a server that sends nothing is given up after `stall`
    /// seconds, and so is one that drips a byte a second.
    func progress(at now: UInt64) -> Progress {
        let second: UInt64 = 1_000_000_000
        let window = UInt64(timeouts.stall) * second
        if checkpoint == nil {
            // Microseconds from the start until the request could be sent; 0 while connecting,
            // which curl's connect timeout bounds (checked here too, a second later, should it not).
            var ready = 0
            // A curl_off_t: a long on LP64 Linux.
            _ = todo_curl_getinfo_long(handle, CURLINFO_PRETRANSFER_TIME_T, &ready)
            if ready > 0 {
                connectedAt = started + UInt64(ready) * 1_000
            } else {
                let giveUp = started + UInt64(timeouts.connect + 1) * second
                guard now >= giveUp else { return .checkAgain(giveUp) }
                connectedAt = started
            }
            checkpoint = (connectedAt, 0, 0)
        }
        guard let (since, movedThen, receivedThen) = checkpoint else { return .checkAgain(now + window) }
        guard now >= since + window else { return .checkAgain(since + window) }
        var sent = 0
        _ = todo_curl_getinfo_long(handle, CURLINFO_SIZE_UPLOAD_T, &sent)
        let moved = receivedBytes + sent
        guard moved - movedThen < HTTPClient.minimumProgress else {
            checkpoint = (now, moved, receivedBytes)
            return .checkAgain(now + window)
        }
        let what = request.map { "\($0.method) \($0.url.string)" } ?? "the request"
        if receivedBytes == 0 {
            let waited = (now - connectedAt + second / 2) / second
            return .stalled(
                HelperError(
                    .unreachable,
                    "\(what): the server did not answer within \(waited) s; stopped (see TODO_SYNC_TIMEOUT)"))
        }
        return .stalled(
            HelperError(
                .unreachable,
                "\(what): the server sent less than 1 KiB in \(timeouts.stall) s "
                    + "(\(receivedBytes - receivedThen) bytes); stopped (see TODO_SYNC_TIMEOUT)"))
    }

    /// The answer, or the error that ended the request.
    func finish(_ code: CURLcode) -> Result<HTTPAnswer, HelperError> {
        defer {
            // An idle handle keeps nothing of its last answer.
            request = nil
            body = []
            headers = []
        }
        guard let request else { return .failure(HelperError(.protocol, "unexpected failure")) }
        if let sinkError { return .failure(sinkError) }
        if code == CURLE_OK {
            // Cut inside its head, an answer is no answer: its empty body is not the server's.
            guard headEnded else { return .failure(unreachable("connection lost inside the answer's head", request)) }
            var status = 0
            _ = todo_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return .success(HTTPAnswer(status: status, headers: headers, body: body))
        }
        return .failure(error(code, request))
    }

    private func error(_ code: CURLcode, _ request: HTTPRequest) -> HelperError {
        let what = "\(request.method) \(request.url.string)"
        let detail = String(cString: errorBuffer)
        let curlText = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            let encoding = headers.last { $0.name.lowercased() == "content-encoding" }?.value
            let unpacked = encoding.map { " once decompressed (it came as Content-Encoding: \($0.prefix(40)))" } ?? ""
            let bound =
                request.sink != nil && status != 207
                ? min(request.maximumAnswer, HTTPClient.maximumBody) : request.maximumAnswer
            return HelperError(
                .badResponse, "\(what): the answer is larger than \(bound >> 20) MiB\(unpacked); stopped")
        }
        if code == CURLE_BAD_CONTENT_ENCODING {
            return HelperError(.badResponse, "\(what): the answer's compression is broken (curl: \(curlText))")
        }
        let reason: String
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            reason = "host not found"
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            _ = todo_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osError)
            reason = osError == Int(ECONNREFUSED) ? "connection refused" : "cannot connect: \(curlText)"
        case CURLE_OPERATION_TIMEDOUT:
            var ready = 0
            _ = todo_curl_getinfo_long(handle, CURLINFO_PRETRANSFER_TIME_T, &ready)
            guard ready == 0 else {
                return HelperError(
                    .unreachable, "\(what): the server took more than \(HTTPClient.requestTimeout) s to answer; stopped"
                )
            }
            reason = "no connection within \(timeouts.connect) s"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            reason = "connection lost: \(curlText)"
        case CURLE_PEER_FAILED_VERIFICATION:
            var result = 0
            _ = todo_curl_getinfo_long(handle, CURLINFO_SSL_VERIFYRESULT, &result)
            reason = "TLS: " + Transfer.certificateProblem(result, curlText)
        case CURLE_SSL_CONNECT_ERROR:
            reason = "TLS handshake failed: \(curlText)"
        case CURLE_SSL_CACERT_BADFILE:
            reason = "TLS: cannot read the CA certificates (\(curlText))"
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            reason = "TLS: \(curlText)"
        default:
            reason = "network error: \(curlText)"
        }
        return unreachable(reason, request)
    }

    /// `request`'s server could not be reached, for `reason`.
    private func unreachable(_ reason: String, _ request: HTTPRequest) -> HelperError {
        HelperError(
            .unreachable,
            "cannot reach \(request.url.authority) (\(reason)) for \(request.method) \(request.url.string)")
    }

    /// The certificate problem as OpenSSL's verify result names it, with curl's own words.
    static func certificateProblem(_ result: Int, _ curlText: String) -> String {
        let name: String
        // curl checks the name itself after OpenSSL accepted the chain.
        let nameMismatch = curlText.containsText("subject name") || curlText.containsText("does not match")
        switch result {
        case _ where nameMismatch: name = "certificate name mismatch"
        case 9: name = "certificate not yet valid"
        case 10: name = "certificate expired"
        case 18, 19: name = "certificate not trusted (self-signed)"
        case 20, 21, 2: name = "certificate not trusted (unknown issuer)"
        case 23: name = "certificate revoked"
        case 62: name = "certificate name mismatch"
        default: name = "certificate not accepted"
        }
        return "\(name); curl: \(curlText)"
    }
}

/// The monotonic clock, in nanoseconds.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// The status code in a status line: an answer's first line (`HTTP/1.1 207 Multi-Status`,
/// `HTTP/2 200`) or a multistatus `status` element (`HTTP/1.1 404 Not Found`).
enum StatusLine {
    /// The line's second word when it is three digits (RFC 9110 §15), else `nil`.
    static func code(in line: some Collection<UInt8>) -> Int? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        let version = line.drop(while: isSpace)
        let afterVersion = version.drop(while: { !isSpace($0) })
        let word = afterVersion.drop(while: isSpace).prefix(while: { !isSpace($0) })
        guard word.count == 3, word.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return word.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
