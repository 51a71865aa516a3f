// TEMPORARY: the API the iCalendar branch provides; removed when it is merged.
import TodoStore
import TodoInterop

public struct TodoFields: Sendable, Equatable, Hashable {
    public var name: String
    public var deadline: CalendarDate?
    public var isDone: Bool
    public init(name: String, deadline: CalendarDate?, isDone: Bool) { self.name = name; self.deadline = deadline; self.isDone = isDone }
}
public struct ICalendarError: Error, Sendable, Equatable { public var description: String; public static let noTodo = ICalendarError(description: "no VTODO") }
public struct VTodoObject: Sendable, Equatable {
    public var uid: String
    public var fields: TodoFields
    public var text: String
    public init(parsing text: String, timeZone: LocalTimeZone) throws(ICalendarError) {
        func value(_ name: String) -> String? {
            text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }.map { String($0.split(separator: ":", maxSplits: 1).last ?? "").filter { $0 != "\r" } }
        }
        guard text.contains("BEGIN:VTODO") else { throw .noTodo }
        guard let uid = value("UID") else { throw ICalendarError(description: "no UID") }
        self.uid = uid
        let due = value("DUE").flatMap { d -> CalendarDate? in
            let s = Array(d.utf8); guard s.count >= 8, let y = Int(String(decoding: s[0..<4], as: UTF8.self)), let m = Int(String(decoding: s[4..<6], as: UTF8.self)), let dd = Int(String(decoding: s[6..<8], as: UTF8.self)) else { return nil }
            return CalendarDate(year: y, month: m, day: dd) }
        fields = TodoFields(name: value("SUMMARY") ?? "", deadline: due, isDone: value("STATUS") == "COMPLETED")
        self.text = text
    }
    public static func new(uid: String, fields: TodoFields, now: Int64) -> VTodoObject {
        var o = VTodoObject(uid: uid, fields: fields, text: "")
        o.text = o.render()
        return o
    }
    private init(uid: String, fields: TodoFields, text: String) { self.uid = uid; self.fields = fields; self.text = text }
    private func render() -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo//todo//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20240101T000000Z", "SUMMARY:\(fields.name)"]
        if let d = fields.deadline { lines.append("DUE;VALUE=DATE:\(String(describing: d).filter { $0 != "-" })") }
        lines.append("STATUS:\(fields.isDone ? "COMPLETED" : "NEEDS-ACTION")")
        lines += ["END:VTODO", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }
    public mutating func update(to fields: TodoFields, now: Int64) { guard fields != self.fields else { return }; self.fields = fields; text = render() }
}
