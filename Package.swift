// swift-tools-version:6.0
// The todo list: a SQLite wrapper, the todo store, a pure snapshot/diff layer, live results across
// processes, import and export, CalDAV sync, the `todo` CLI and its `todo-sync` companion.
// No package dependencies: the toolchain and system libraries only (libsqlite3; libcurl and libxml2
// for todo-sync).
import PackageDescription

/// `scripts/test` sets TODO_OPTIMISED_TESTS=1: the libraries and todo-sync are then optimised in
/// its debug build too. That makes the clean build dearer and the test run cheaper, and tests
/// the code as the shipped, optimised binaries run it (a release-only bug once escaped a
/// debug-only suite). Only then: unsafe flags would keep other packages from depending on these
/// libraries. The test targets stay unoptimised: optimising TodoObservationTests cost the build
/// more CPU than it saved its property test, and Swift Testing 6.3 garbles the stderr that
/// TodoSnapshotTests' exit tests read in optimised test code. Should an incremental build keep stale optimised code
/// after a library type changes (seen once: an enum gained a case and a test crashed), `touch`
/// the dependent target's files or build from clean; `-wmo` would avoid it, but SwiftPM's
/// index-while-building refuses it.
let optimisedInTests: [SwiftSetting] =
    Context.environment["TODO_OPTIMISED_TESTS"] == "1"
    ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
    name: "todo",
    products: [
        .executable(name: "todo", targets: ["todo"]),
        .library(name: "SQLite", targets: ["SQLite"]),
        .library(name: "TodoStore", targets: ["TodoStore"]),
        .library(name: "TodoSnapshot", targets: ["TodoSnapshot"]),
        .library(name: "TodoObservation", targets: ["TodoObservation"]),
        .library(name: "TodoSync", targets: ["TodoSync"]),
        // `todo sync` runs this companion (as git runs git-remote-https): HTTP on libcurl and XML
        // on libxml2, which `todo` itself does without to stay small, static and fast.
        .executable(name: "todo-sync", targets: ["todo-sync"])
    ],
    targets: [
        // libsqlite3 from the system (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's malloc.h (malloc_trim, for `todo ui`); part of libc, nothing more to link.
        .systemLibrary(name: "CMalloc"),
        // The one control-character policy (what must not reach a terminal or another app raw,
        // and how each writer renders it). Standard library only.
        .target(name: "TextSafety", swiftSettings: optimisedInTests),
        // Layer 1a: a small, safe wrapper over the C API.
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: optimisedInTests),
        // Layer 1b: migrations, the Todo model and its repository.
        .target(name: "TodoStore", dependencies: ["SQLite", "TextSafety"], swiftSettings: optimisedInTests),
        // Layer 3: snapshots and their diff. Standard library only.
        .target(name: "TodoSnapshot", swiftSettings: optimisedInTests),
        // A strict JSON parser and writer and its values (RFC 8259), on TextSafety and the
        // standard library: shared by TodoInterop (which re-exports it), SyncProtocol and the
        // todo-sync companion.
        .target(name: "JSONCodec", dependencies: ["TextSafety"], swiftSettings: optimisedInTests),
        // Other tools' files: reading JSON (ours), taskwarrior's export and todo.txt, and writing
        // todo.txt. Pure parsing and formatting.
        .target(
            name: "TodoInterop", dependencies: ["TodoStore", "JSONCodec", "TextSafety"], swiftSettings: optimisedInTests
        ),
        // The messages between `todo sync` and its companion todo-sync, defined once for both
        // sides: the protocol's version, each request and answer, strict decoding. On JSONCodec.
        .target(name: "SyncProtocol", dependencies: ["JSONCodec"], swiftSettings: optimisedInTests),
        // Layer 2: the fetched-results controller and change notifications across processes.
        .target(
            name: "TodoObservation", dependencies: ["SQLite", "TodoStore", "TodoSnapshot"],
            swiftSettings: optimisedInTests),
        // Sync with a CalDAV collection, beside observation on the store: the iCalendar codec and
        // the merge rules (pure), the sync state, and the engine, written against a collection
        // protocol. The `todo` executable runs the engine in-process (`todo sync`); the CalDAV
        // client (HTTP on libcurl, XML on libxml2) is the separate todo-sync helper, which `todo`
        // reaches through that protocol. No Foundation, no libcurl or libxml2 here.
        .target(
            name: "TodoSync", dependencies: ["SQLite", "TodoStore", "TodoInterop", "SyncProtocol", "TextSafety"],
            swiftSettings: optimisedInTests),
        // The command-line tool.
        .executableTarget(
            name: "todo",
            dependencies: [
                "SQLite", "TodoStore", "TodoSnapshot", "TodoObservation", "TodoInterop", "TodoSync", "SyncProtocol",
                "TextSafety", "CMalloc"
            ]),
        // libcurl and libxml2 from the system (Debian: libcurl4-openssl-dev, libxml2-dev), and
        // typed C doors to curl's variadic calls.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The CalDAV client of `todo sync`, which spawns it: HTTP on libcurl, XML on libxml2's
        // push parser, JSON lines on JSONCodec. No Foundation.
        .executableTarget(
            name: "todo-sync",
            dependencies: ["CCurl", "CCurlShim", "CLibXML2", "JSONCodec", "SyncProtocol", "TextSafety"],
            swiftSettings: optimisedInTests),
        // Benchmarks driven by scripts/bench.
        .executableTarget(name: "TodoBench", dependencies: ["SQLite", "TodoStore", "TodoSnapshot", "TodoObservation"]),

        // Temporary folders and a process runner shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport", exclude: ["misbehaving_caldav.py"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "TodoStoreTests", dependencies: ["TodoStore", "TextSafety", "TestSupport"]),
        // A VFS that simulates power loss (unsynced writes dropped or torn), for the tests below.
        .target(name: "CPowerLossVFS", dependencies: ["CSQLite"], path: "Tests/CPowerLossVFS"),
        .testTarget(name: "PowerLossTests", dependencies: ["TodoStore", "TodoInterop", "CPowerLossVFS", "TestSupport"]),
        .testTarget(name: "TodoSnapshotTests", dependencies: ["TodoSnapshot", "TestSupport"]),
        .testTarget(
            name: "TodoObservationTests", dependencies: ["TodoObservation", "TestSupport"]),
        .testTarget(
            name: "TodoInteropTests", dependencies: ["TodoInterop", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "TodoSyncTests", dependencies: ["TodoSync", "SyncProtocol", "TestSupport"]),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol", "TestSupport"]),
        // End to end: runs the built `todo` (so it depends on it) beside sqlite3 and python3.
        .testTarget(name: "TodoCLITests", dependencies: ["todo", "TodoStore", "TestSupport"]),
        // `todo sync` against real CalDAV servers (Radicale, Xandikos) and clients (python3-caldav).
        .testTarget(
            name: "TodoSyncServerTests", dependencies: ["todo", "todo-sync", "TodoStore", "SyncProtocol", "TestSupport"]
        )
    ],
    swiftLanguageModes: [.v6]
)
