import TodoStore

/// RELATED-TO (RFC 5545 3.8.4.5, RFC 9253): how an object says it is a subtask, and what it
/// waits for.
///
/// The apps write a subtask's link on the subtask, naming its parent's UID: Tasks.org and
/// Nextcloud Tasks bare (`RELATED-TO:<uid>`, PARENT being RFC 5545's default type), Apple
/// Reminders and Thunderbird with `RELTYPE=PARENT`. Some write the link the other way too, on the
/// parent, as `RELATED-TO;RELTYPE=CHILD:<uid>` per subtask. Every form is read; `todo` writes
/// `RELATED-TO;RELTYPE=PARENT` on the subtask, and only when the parent changed here: a link
/// another app wrote stays as it wrote it, and links of other types (SIBLING, DEPENDS-ON, an
/// X- type) are never touched.
///
/// A todo waits for another (a dependency: ``TodoRepository``'s contract) as RFC 9253 says it,
/// `RELATED-TO;RELTYPE=DEPENDS-ON:<uid>` on the waiting todo's object, one per todo waited for:
/// read by ``dependsOnUIDs(of:)``, written by ``dependsOnLink(_:)``.
extension VTodoObject {
    /// The most bytes of a UID a link is read with: far above any app's (a UUID is 36), and
    /// small enough that a hostile object cannot make every lookup costly.
    static let maximumRelatedUIDLength = 1024

    /// The UID of the todo this object is a subtask of: the first RELATED-TO of type PARENT
    /// (written so, or with no RELTYPE), `nil` when there is none, when it names this object
    /// itself, or when it is empty or longer than 1,024 bytes (far above any app's UID: a UUID is 36).
    public var parentUID: String? { Self.parentUID(of: todo) }

    /// The UIDs this object names as its subtasks (RELATED-TO;RELTYPE=CHILD), in order.
    public var childUIDs: [String] { Self.childUIDs(of: todo) }

    /// ``parentUID`` of a VTODO.
    static func parentUID(of todo: ICalendarComponent) -> String? {
        let own = uid(of: todo)
        for property in todo.properties(named: "RELATED-TO") where relationType(of: property) == "PARENT" {
            return relatedUID(property, own: own)
        }
        return nil
    }

    /// ``childUIDs`` of a VTODO.
    static func childUIDs(of todo: ICalendarComponent) -> [String] {
        let own = uid(of: todo)
        return todo.properties(named: "RELATED-TO").filter { relationType(of: $0) == "CHILD" }
            .compactMap { relatedUID($0, own: own) }
    }

    /// The UIDs of the todos this object waits for (RELATED-TO;RELTYPE=DEPENDS-ON, the type in any
    /// case), in order, each once; a link naming the object itself, empty or longer than
    /// 1,024 bytes (far above any app's UID: a UUID is 36) is none.
    public var dependsOnUIDs: [String] { Self.dependsOnUIDs(of: todo) }

    /// ``dependsOnUIDs`` of a VTODO.
    static func dependsOnUIDs(of todo: ICalendarComponent) -> [String] {
        let own = uid(of: todo)
        var found: [String] = []
        for property in todo.properties(named: "RELATED-TO") where relationType(of: property) == "DEPENDS-ON" {
            if let uid = relatedUID(property, own: own), !found.contains(uid) { found.append(uid) }
        }
        return found
    }

    /// The link an object carries for each todo it waits for: `RELATED-TO;RELTYPE=DEPENDS-ON:<uid>`.
    static func dependsOnLink(_ uid: String) -> ICalendarProperty {
        ICalendarProperty(
            name: "RELATED-TO", parameters: [ICalendarParameter(name: "RELTYPE", values: ["DEPENDS-ON"])], value: uid)
    }

    /// The link a new object of a subtask carries: `RELATED-TO;RELTYPE=PARENT:<uid>`.
    static func parentLink(_ uid: String) -> ICalendarProperty {
        ICalendarProperty(
            name: "RELATED-TO", parameters: [ICalendarParameter(name: "RELTYPE", values: ["PARENT"])], value: uid)
    }

    /// Makes this object a subtask of the todo of `uid` (`nil`: of none), when that is not what
    /// it says already: its links of type PARENT go, one `RELATED-TO;RELTYPE=PARENT` is written.
    /// DTSTAMP, LAST-MODIFIED and SEQUENCE move as for any change (``update(to:now:)``), unless
    /// `now` is `nil` (an object being made, stamped already); when nothing changes the text
    /// stays byte-identical.
    public mutating func setParent(_ uid: String?, now: Int64?) {
        guard uid != parentUID else { return }
        replaceLinks(ofType: "PARENT", with: uid.map { [Self.parentLink($0)] } ?? [], now: now)
    }

    /// Makes this object wait for the todos of `uids` (RELATED-TO;RELTYPE=DEPENDS-ON), when that
    /// is not the set it names already; as ``setParent(_:now:)`` otherwise.
    public mutating func setDependsOn(_ uids: [String], now: Int64?) {
        guard Set(uids) != Set(dependsOnUIDs) else { return }
        replaceLinks(ofType: "DEPENDS-ON", with: uids.map(Self.dependsOnLink), now: now)
    }

    /// Replaces the links of `type` with `links`, after the last property, and stamps the change.
    private mutating func replaceLinks(ofType type: String, with links: [ICalendarProperty], now: Int64?) {
        var todo = self.todo
        todo.children.removeAll { child in
            guard case .property(let property) = child, property.name == "RELATED-TO" else { return false }
            return Self.relationType(of: property) == type
        }
        let last = todo.children.lastIndex { if case .property = $0 { true } else { false } }
        todo.children.insert(contentsOf: links.map { .property($0) }, at: last.map { $0 + 1 } ?? 0)
        if let now {
            let stamp = UTCTimestamp(secondsSince1970: now).basic
            todo.setProperty(ICalendarProperty(name: "DTSTAMP", value: stamp))
            todo.setProperty(ICalendarProperty(name: "LAST-MODIFIED", value: stamp))
            let sequence = todo.property(named: "SEQUENCE").flatMap { Int(ICalendar.trimmed($0.value)) } ?? 0
            todo.setProperty(ICalendarProperty(name: "SEQUENCE", value: String(max(sequence, 0) + 1)))
        }
        replaceTodo(with: todo)
    }

    /// A link's type, upper-cased: PARENT when it has no RELTYPE (RFC 5545's default).
    static func relationType(of property: ICalendarProperty) -> String {
        property.parameter(named: "RELTYPE").map { ICalendar.upper(ICalendar.trimmed($0.value)) } ?? "PARENT"
    }

    /// The UID a link names, by the rules of ``parentUID``; `own` is the VTODO's own UID.
    private static func relatedUID(_ property: ICalendarProperty, own: String?) -> String? {
        let value = ICalendar.trimmed(property.value)
        guard !value.isEmpty, value.utf8.count <= maximumRelatedUIDLength, value != own else { return nil }
        return value
    }
}
