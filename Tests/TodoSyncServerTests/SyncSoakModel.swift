import Foundation

/// Who wrote: one of the soak's devices (by index), or the phone.
enum SoakActor: Hashable, CustomStringConvertible {
    case device(Int)
    case phone

    var description: String {
        switch self {
        case .device(let index): "device \(index)"
        case .phone: "phone"
        }
    }
}

/// A todo's fields as the soak compares them, from `todo list --json` or from an object's text:
/// tags as lower-case words (`work`, `@phone`), the times left out (the oracles follow the
/// fields people write; the devices' full agreement, times included, is checked on
/// ``SyncDevice/list()``).
struct SoakFields: Equatable {
    var name: String
    var deadline: String?
    var done: Bool
    var priority: Int
    var tags: [String]
    var note: String?

    /// The fields whose last written value the soak follows (tags merge as a set: each tag left
    /// must have been given by someone).
    static let oneValueFields = ["name", "deadline", "done", "priority", "note"]
    static let all = oneValueFields + ["tags"]

    /// The key the soak follows a todo by: its name's first word (`K17`, `P3`, `S5`), which
    /// every rename keeps.
    var key: String { String(name.prefix { $0 != " " }) }

    /// A field's value as one comparable string.
    func value(_ field: String) -> String {
        switch field {
        case "name": name
        case "deadline": deadline ?? "(none)"
        case "done": done ? "done" : "not done"
        case "priority": String(priority)
        case "tags": tags.sorted().joined(separator: " ")
        default: note.map { "note " + $0 } ?? "(none)"
        }
    }
}

extension SoakFields {
    /// A todo of `todo list --json`.
    init(json todo: [String: Any]) {
        name = todo["name"] as? String ?? ""
        deadline = todo["deadline"] as? String
        done = todo["done"] as? Bool ?? false
        priority = todo["priority"] as? Int ?? 0
        tags = (todo["tags"] as? [String] ?? []).map { ($0.hasPrefix("+") ? String($0.dropFirst()) : $0).lowercased() }
        note = todo["note"] as? String
    }
}

/// The soak's ground truth: for each key, who created it, who wrote each field and with what
/// value (the last write, and every value ever given), the deletes and restores acknowledged,
/// and the conflicts syncs reported. Writes are what an actor's own command or request did, as
/// acknowledged (a `todo` command's exit 0, a PUT's 2xx, a sqlite3 statement's returned row);
/// a sync's merges are no one's writes.
final class SoakModel {
    struct Write {
        var step: Int
        var actor: SoakActor
        var value: String
    }

    struct History {
        var creator: SoakActor
        var createdAt: Int
        /// Every actor that wrote the todo (created, changed, deleted or restored it).
        var writers: Set<SoakActor> = []
        /// The steps of each actor's writes.
        var writeSteps: [SoakActor: [Int]] = [:]
        var fieldWriters: [String: Set<SoakActor>] = [:]
        /// Every value each field was given.
        var values: [String: Set<String>] = [:]
        /// Every tag ever given.
        var tags: Set<String> = []
        var last: [String: Write] = [:]
        /// Every write of each field, in the order they were made.
        var fieldWrites: [String: [Write]] = [:]
        var deletes: [Write] = []
        var restores: [Write] = []
        /// The conflicts reported on it: the step, the device whose sync reported it, the field
        /// (`deleted` for an edit that beat a delete).
        var conflicts: [(step: Int, device: Int, field: String)] = []
        /// A phone object's lines that `todo` does not know.
        var unknownLines: [String]?
    }

    private(set) var keys: [String: History] = [:]
    /// How a sync ended, for the oracles: a failed one reports the conflicts it met (beside its
    /// error), a killed one nothing; either may have lost a write's answer.
    enum SyncEnd {
        case succeeded, failed, killed
    }

    /// Syncs that ended without a report (killed): a conflict they met is not reported.
    private var unreported: [(step: Int, device: Int)] = []
    /// Syncs that ended before their work was done (failed or killed).
    private var interrupted: [(step: Int, device: Int)] = []
    /// The steps of each device's syncs that succeeded.
    private var succeeded: [Int: [Int]] = [:]

    func knows(_ key: String) -> Bool { keys[key] != nil }

    func created(_ key: String, _ fields: SoakFields, by actor: SoakActor, at step: Int, unknownLines: [String]? = nil)
    {
        keys[key] = History(creator: actor, createdAt: step, unknownLines: unknownLines)
        wrote(key, everyFieldOf: fields, by: actor, at: step)
    }

    /// `actor` wrote `field` of `key` (known) with `value`.
    func wrote(_ key: String, _ field: String, _ value: String, tags: [String] = [], by actor: SoakActor, at step: Int)
    {
        guard keys[key] != nil else { return }
        keys[key]!.writers.insert(actor)
        keys[key]!.writeSteps[actor, default: []].append(step)
        keys[key]!.fieldWriters[field, default: []].insert(actor)
        keys[key]!.values[field, default: []].insert(value)
        keys[key]!.last[field] = Write(step: step, actor: actor, value: value)
        keys[key]!.fieldWrites[field, default: []].append(Write(step: step, actor: actor, value: value))
        keys[key]!.tags.formUnion(tags)
    }

    func wrote(_ key: String, everyFieldOf fields: SoakFields, by actor: SoakActor, at step: Int) {
        for field in SoakFields.all {
            wrote(key, field, fields.value(field), tags: field == "tags" ? fields.tags : [], by: actor, at: step)
        }
    }

    /// The fields that differ between `old` and `new`, written by `actor`.
    func wrote(_ key: String, from old: SoakFields, to new: SoakFields, by actor: SoakActor, at step: Int) {
        for field in SoakFields.all where old.value(field) != new.value(field) {
            wrote(key, field, new.value(field), tags: field == "tags" ? new.tags : [], by: actor, at: step)
        }
    }

    func deleted(_ key: String, by actor: SoakActor, at step: Int) {
        guard keys[key] != nil else { return }
        keys[key]!.writers.insert(actor)
        keys[key]!.writeSteps[actor, default: []].append(step)
        keys[key]!.deletes.append(Write(step: step, actor: actor, value: ""))
    }

    /// A todo back after its delete (`todo undo` of an `rm`). Its fields are not written again:
    /// they come back as the device last had them, with what it last synced, so a field another
    /// actor changed meanwhile takes that change, as the undo of an edit never made would.
    func restored(_ key: String, _ fields: SoakFields, by actor: SoakActor, at step: Int) {
        guard keys[key] != nil else { return }
        keys[key]!.restores.append(Write(step: step, actor: actor, value: ""))
        keys[key]!.writers.insert(actor)
        keys[key]!.writeSteps[actor, default: []].append(step)
    }

    /// A conflict a sync of `device` reported on `key`; a problem when fewer than two actors
    /// wrote the todo (or, for a field, that field) since it was created.
    func conflict(_ key: String, field: String, device: Int, at step: Int) -> String? {
        guard let history = keys[key] else { return "a conflict (\(field)) on \(key), which no one made" }
        keys[key]!.conflicts.append((step, device, field))
        if history.writers.count < 2 {
            return "a conflict (\(field)) on \(key), which only \(history.writers.map(\.description)) wrote"
        }
        // `completed` changes with `done` (todo done, a phone's STATUS); `created` is no one's
        // to change, so the todo's writers are all that can be asked of it.
        let followed = field == "completed" ? "done" : field
        guard SoakFields.all.contains(followed) else { return nil }
        let writers = history.fieldWriters[followed] ?? []
        if writers.count < 2 {
            return "a conflict on \(key)'s \(field), which only \(writers.map(\.description)) wrote"
        }
        return nil
    }

    func sync(of device: Int, at step: Int, ended end: SyncEnd) {
        switch end {
        case .succeeded: succeeded[device, default: []].append(step)
        case .failed: interrupted.append((step, device))
        case .killed:
            interrupted.append((step, device))
            unreported.append((step, device))
        }
    }

    /// Whether a write of `history`'s todo may have landed with its answer lost and been
    /// deleted there (at `step`) before its device synced again: a sync of that device ended
    /// before its work was done, before `step`, while the write waited to be sent, and none of
    /// its syncs succeeded in between. The device cannot always tell that from a write that
    /// never landed (docs/sync.md), and sends the todo again rather than lose it.
    private func unanswered(_ history: History, before step: Int) -> Bool {
        interrupted.contains { sync in
            guard sync.step < step, let writes = history.writeSteps[.device(sync.device)] else { return false }
            let syncs = succeeded[sync.device] ?? []
            let lastSynced = syncs.last { $0 < sync.step } ?? -1
            return writes.contains { lastSynced < $0 && $0 < sync.step }
                && !syncs.contains { sync.step < $0 && $0 < step }
        }
    }

    /// The findings of the oracles on the final state.
    struct Findings {
        var lost: [String] = []
        var wronglyChanged: [String] = []
        var deletesUndone: [String] = []
        var unknownLinesLost: [String] = []
        /// Divergences the oracles let pass because the sync that would have reported their
        /// conflict ended without a report (killed), or a write's answer was lost: counted, not
        /// failed.
        var unverifiable: [String] = []
    }

    /// Checks the final state: `final` every todo every device and the server agree on (by
    /// key), `objects` the server's text of each. See ``SyncSoak`` for the oracles.
    func check(final: [String: SoakFields], objects: [String: String]) -> Findings {
        var findings = Findings()
        for (key, history) in keys.sorted(by: { $0.key < $1.key }) {
            let deleted = !history.deletes.isEmpty
            guard let fields = final[key] else {
                if !deleted { findings.lost.append("\(key) (made by \(history.creator), never deleted) is gone") }
                continue
            }
            // Present after a delete: only by a restore, or an edit that beat it (reported).
            if let delete = history.deletes.last {
                let restored = history.restores.contains { $0.step > delete.step }
                // At the delete's own step: a sqlite3 delete in the middle of the sync that then
                // reported the edit that beat it.
                let reported = history.conflicts.contains { $0.step >= delete.step && $0.field == "deleted" }
                if !restored && !reported {
                    let message =
                        "\(key), deleted by \(delete.actor) at step \(delete.step), is back with no conflict reported"
                    if unanswered(history, before: delete.step) || unreportedSince(delete.step, by: history.writers) {
                        findings.unverifiable.append(message)
                    } else {
                        findings.deletesUndone.append(message)
                    }
                }
            }
            for field in SoakFields.oneValueFields {
                let value = fields.value(field)
                guard history.values[field]?.contains(value) == true else {
                    findings.wronglyChanged.append("\(key)'s \(field) is \(value.debugDescription), which no one wrote")
                    continue
                }
                // The last value written stands, unless a conflict said it was replaced.
                guard let last = history.last[field], last.value != value else { continue }
                // The last write to reach the server stands, which need not be the last made: a
                // device's write reaches it with that device's next sync (an older write of a
                // device that syncs later wins over a newer one synced before, with no conflict
                // when the newer one's device left the field as that device last saw it).
                if mayHaveArrivedLast(history.fieldWrites[field] ?? []).contains(where: { $0.value == value }) {
                    continue
                }
                let reported = history.conflicts.contains {
                    $0.step > last.step && ($0.field == field || $0.field == "deleted")
                }
                if reported { continue }
                let message =
                    "\(key)'s \(field) is \(value.debugDescription), not \(last.value.debugDescription) written last by \(last.actor) at step \(last.step), and no conflict said so"
                if unreportedSince(last.step, by: history.fieldWriters[field] ?? [])
                    || unsureUndos.contains("\(key)|\(field)|\(last.step)")
                {
                    findings.unverifiable.append(message)
                } else {
                    findings.wronglyChanged.append(message)
                }
            }
            for tag in fields.tags where !history.tags.contains(tag) {
                findings.wronglyChanged.append("\(key) has the tag \(tag), which no one gave it")
            }
            if let lines = history.unknownLines {
                let text = objects[key] ?? ""
                let alarm = lines.dropFirst().joined(separator: "\r\n") + "\r\n"
                let categories = SoakICS.values("CATEGORIES", in: SoakICS.unfolded(text)).flatMap(SoakICS.list)
                if !text.contains("\r\n" + lines[0] + "\r\n") || !text.contains("\r\n" + alarm)
                    || !categories.contains(SoakPhone.keptCategory)
                {
                    findings.unknownLinesLost.append("\(key)'s object lost lines todo does not know:\n\(text)")
                }
            }
        }
        return findings
    }

    /// Whether `device` may have sent its last write of `key`'s `field`: one of its syncs ran
    /// after it (an undo of a write it never sent leaves nothing to send). True when it never
    /// wrote the field (the undo is of another kind of change, say a delete).
    func syncedSinceLastWrite(_ key: String, _ field: String, of device: Int) -> Bool {
        guard let write = keys[key]?.fieldWrites[field]?.last(where: { $0.actor == .device(device) }) else {
            return true
        }
        let syncs = (succeeded[device] ?? []) + interrupted.filter { $0.device == device }.map(\.step)
        return syncs.contains { $0 >= write.step }
    }

    /// Whether only syncs that ended before their work was done ran since `device`'s last write
    /// of `key`'s `field`: whether that write was sent cannot be told, and so neither can
    /// whether an undo of it is a write (sent: the undo sends the old value) or none.
    func onlyInterruptedSinceLastWrite(_ key: String, _ field: String, of device: Int) -> Bool {
        guard let write = keys[key]?.fieldWrites[field]?.last(where: { $0.actor == .device(device) }) else {
            return false
        }
        return !(succeeded[device] ?? []).contains { $0 >= write.step }
    }

    /// `actor`'s undo wrote `field` of `key` back at `step` after a write only interrupted syncs
    /// may have sent (``onlyInterruptedSinceLastWrite(_:_:of:)``): its value standing or not are
    /// both right, and a final value other than it is unverifiable, not wrong.
    func wroteByUnsureUndo(_ key: String, _ field: String, at step: Int) {
        unsureUndos.insert("\(key)|\(field)|\(step)")
    }

    /// ``wroteByUnsureUndo(_:_:at:)``'s writes.
    private var unsureUndos: Set<String> = []

    /// Takes back `device`'s last write of `key`'s `field`, which an undo reverted before any
    /// sync could send it: for everyone else, it never happened.
    func retractLastWrite(_ key: String, _ field: String, of device: Int) {
        guard var writes = keys[key]?.fieldWrites[field],
            let index = writes.lastIndex(where: { $0.actor == .device(device) })
        else { return }
        writes.remove(at: index)
        keys[key]!.fieldWrites[field] = writes
        keys[key]!.last[field] = writes.last
    }

    /// The steps between which `write` reached the server: a phone's at once; a device's with
    /// one of its syncs, no sooner than the first from its step on (one may have been running,
    /// with a write made during it) and no later than the first that succeeded after it.
    private func arrival(of write: Write) -> (earliest: Int, latest: Int) {
        guard case .device(let device) = write.actor else { return (write.step, write.step) }
        let succeededSteps = succeeded[device] ?? []
        let syncs = succeededSteps + interrupted.filter { $0.device == device }.map(\.step)
        return (
            syncs.filter { $0 >= write.step }.min() ?? Int.max,
            succeededSteps.first { $0 > write.step } ?? Int.max
        )
    }

    /// The writes among `writes` (of one field) that may have been the last to reach the
    /// server: those that no write of another value surely reached it after.
    private func mayHaveArrivedLast(_ writes: [Write]) -> [Write] {
        let arrivals = writes.map(arrival(of:))
        return writes.indices.filter { index in
            !writes.indices.contains { other in
                writes[other].value != writes[index].value && arrivals[other].earliest > arrivals[index].latest
            }
        }.map { writes[$0] }
    }

    /// Whether a sync of a device among `writers` ended without a report after `step`.
    private func unreportedSince(_ step: Int, by writers: Set<SoakActor>) -> Bool {
        unreported.contains { $0.step > step && writers.contains(.device($0.device)) }
    }
}
