import CSQLite

/// The body of a two-argument text predicate registered with ``Connection/addTextPredicate(named:_:)``.
public typealias TextPredicate = (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool

/// Boxes a Swift closure so SQLite can carry it as user data (released by SQLite's destructor).
private final class PredicateBox {
    let body: TextPredicate
    init(_ body: @escaping TextPredicate) { self.body = body }
}

extension Connection {
    /// Registers `name(a, b)` as a deterministic SQL function returning 1 or 0, computed by
    /// `body` over the UTF-8 bytes of its two arguments (NULL reads as empty).
    ///
    /// For what SQL cannot say well, such as Unicode-aware matching: SQLite's `LIKE` folds ASCII
    /// case only. The function exists on this connection only; other clients never see it, so
    /// it must not appear in the schema (views, indexes, triggers).
    public func addTextPredicate(named name: String, _ body: @escaping TextPredicate) throws(SQLiteError) {
        let box = Unmanaged.passRetained(PredicateBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, arguments in
                guard let context, count == 2, let arguments,
                    let box = sqlite3_user_data(context)
                else { return }
                func bytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8> {
                    let text = sqlite3_value_text(value)
                    return UnsafeBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_value_bytes(value)))
                }
                let predicate = Unmanaged<PredicateBox>.fromOpaque(box).takeUnretainedValue()
                sqlite3_result_int(context, predicate.body(bytes(arguments[0]), bytes(arguments[1])) ? 1 : 0)
            },
            nil, nil,
            { box in if let box { Unmanaged<PredicateBox>.fromOpaque(box).release() } })
        try check(code, handle)
    }
}
