import Foundation
import TestSupport
import Testing

@testable import todo_sync

/// The pieces of `make_collection`, `set_collection` and `delete_collection` that need no server:
/// the answers to MKCALENDAR, extended MKCOL and PROPPATCH as the multistatus reader reads them
/// (each property's status, the colour, the conditions of an error), and what a request may name.
@Suite("todo-sync collections: creation answers, per-property statuses, segments and names", .timed)
struct CollectionReaderTests {
    /// `xml` read by a `.properties` reader keeping the collection's properties (`creation`
    /// answers allowed), in pieces of `piece` bytes: the responses, and the root error's conditions.
    private func read(_ xml: String, creation: Bool = true, piece: Int = 5) throws(HelperError) -> (
        [DAVResponse], [String]
    ) {
        final class Box { var responses: [DAVResponse] = [] }
        let box = Box()
        let reader = MultistatusReader(.properties, keeping: CalDAVClient.collectionProperties, creation: creation) {
            (response) throws(HelperError) in box.responses.append(response)
        }
        reader.begin()
        let bytes = Array(xml.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + piece, bytes.count)
            let failure: HelperError? = bytes[start..<end].withUnsafeBytes { chunk in
                do throws(HelperError) {
                    try reader.consume(chunk)
                    return nil
                } catch { return error }
            }
            if let failure { throw failure }
            start = end
        }
        try reader.finish()
        return (box.responses, reader.conditions)
    }

    @Test("Xandikos' 201 to MKCALENDAR: a mkcalendar-response in a misspelt namespace, one property set, two not")
    func xandikosCreationAnswer() throws {
        // As Xandikos 0.2.8 answers, byte for byte (its namespace for the root is misspelt).
        let xml =
            #"<ns0:mkcalendar-response xmlns:ns0="urn:ietf:params:xml:ns:carldav:" xmlns:ns1="DAV:" "#
            + #"xmlns:ns2="urn:ietf:params:xml:ns:caldav" xmlns:ns3="http://apple.com/ns/ical/"><ns1:propstat>"#
            + #"<ns1:status>HTTP/1.1 200 OK</ns1:status><ns1:prop><ns1:displayname /></ns1:prop></ns1:propstat>"#
            + #"<ns1:propstat><ns1:status>HTTP/1.1 404 Not Found</ns1:status><ns1:prop>"#
            + #"<ns2:supported-calendar-component-set /><ns3:calendar-color /></ns1:prop></ns1:propstat>"#
            + #"</ns0:mkcalendar-response>"#
        for piece in [1, 7, 1 << 20] {
            let (responses, conditions) = try read(xml, piece: piece)
            #expect(responses.count == 1 && conditions.isEmpty)
            let response = try #require(responses.first)
            #expect(response.href == "")
            #expect(response.statuses == [.displayName: 200, .components: 404, .calendarColor: 404])
        }
        // The extended MKCOL answer of RFC 5689, with the properties' values kept when given.
        let mkcol =
            #"<D:mkcol-response xmlns:D="DAV:" xmlns:A="http://apple.com/ns/ical/"><D:propstat><D:prop>"#
            + #"<D:resourcetype/><A:calendar-color>#11223344</A:calendar-color></D:prop>"#
            + #"<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:mkcol-response>"#
        let (responses, _) = try read(mkcol)
        #expect(responses.first?.statuses == [.resourceType: 200, .calendarColor: 200])
        #expect(responses.first?.calendarColor == "#11223344")
        // Only where creation answers are read: elsewhere it is no multistatus.
        #expect(throws: HelperError.self) { try read(mkcol, creation: false) }
    }

    @Test("an atomic refusal: the colour 403, the rest 424; a propstat without a status is 200; a failure stays")
    func perPropertyStatuses() throws {
        let xml =
            #"<?xml version="1.0"?><C:mkcalendar-response xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" "#
            + #"xmlns:A="http://apple.com/ns/ical/"><D:propstat><D:prop><A:calendar-color/></D:prop>"#
            + #"<D:status>HTTP/1.1 403 Forbidden</D:status></D:propstat><D:propstat><D:prop><D:displayname/>"#
            + #"<C:supported-calendar-component-set/></D:prop><D:status>HTTP/1.1 424 Failed Dependency</D:status>"#
            + #"</D:propstat><D:propstat><D:prop><A:calendar-color/></D:prop></D:propstat>"#
            + #"<D:propstat><D:prop><D:getetag/></D:prop><D:status>HTTP/1.1 500 x</D:status></D:propstat>"#
            + #"</C:mkcalendar-response>"#
        let (responses, _) = try read(xml)
        // The colour's 403 stays over the later 200; getetag is not kept, so not named.
        #expect(responses.first?.statuses == [.calendarColor: 403, .displayName: 424, .components: 424])

        // A PROPPATCH multistatus: values empty, statuses per property, the colour's text when sent.
        let patch =
            #"<multistatus xmlns="DAV:" xmlns:I="http://apple.com/ns/ical/"><response><href>/a/w/</href>"#
            + #"<propstat><prop><displayname/></prop><status>HTTP/1.1 200 OK</status></propstat>"#
            + #"<propstat><prop><I:calendar-color>red</I:calendar-color></prop><status>HTTP/1.1 409 Conflict</status>"#
            + #"</propstat></response></multistatus>"#
        let (patched, _) = try read(patch, creation: false)
        #expect(patched.first?.href == "/a/w/")
        #expect(patched.first?.statuses == [.displayName: 200, .calendarColor: 409])
        #expect(patched.first?.calendarColor == nil, "a failed propstat's value is not the property's")
    }

    @Test("a taken segment: Radicale's DAV:error root and Xandikos' 207 with an error in the response")
    func conditions() throws {
        let radicale =
            "<?xml version='1.0' encoding='utf-8'?>\n<error xmlns=\"DAV:\"><resource-must-be-null /></error>"
        let (none, conditions) = try read(radicale)
        #expect(none.isEmpty && conditions == ["resource-must-be-null"])
        let xandikos =
            #"<ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>http%3A//127.0.0.1%3A1/u/c/a/</ns0:href>"#
            + #"<ns0:status>HTTP/1.1 403 Forbidden</ns0:status><ns0:error><ns0:resource-must-be-null />"#
            + #"</ns0:error><ns0:responsedescription>Something already exists</ns0:responsedescription>"#
            + #"</ns0:response></ns0:multistatus>"#
        let (responses, rootConditions) = try read(xandikos)
        #expect(rootConditions.isEmpty)
        #expect(responses.first?.status == 403 && responses.first?.conditions == ["resource-must-be-null"])
        // At most 16 conditions are kept, whatever a server lists; other namespaces' are not conditions.
        let many =
            #"<error xmlns="DAV:" xmlns:x="urn:x">"# + String(repeating: "<a/>", count: 10_000) + "<x:b/></error>"
        #expect(try read(many).1.count == MultistatusReader.maximumConditions)
        let foreign = #"<error xmlns="DAV:" xmlns:x="urn:x"><x:resource-must-be-null/></error>"#
        #expect(try read(foreign).1.isEmpty)
    }

    @Test("what a request may name: one segment of unreserved characters, a name without control characters")
    func requestValues() throws {
        for good in ["0F5C2E6A-2D8B-4C1E-9E0B-8D6A3A1B2C3D", "a", "x.y_z~-", String(repeating: "a", count: 255)] {
            #expect(CalDAVClient.isSegment(good), "\(good)")
        }
        for bad in [
            "", ".", "..", "a/b", "a%2Fb", "é", "a b", "a?b", "a#b", String(repeating: "a", count: 256), "\u{1b}"
        ] {
            #expect(!CalDAVClient.isSegment(bad), "\(bad.debugDescription)")
        }
        #expect(try CalDAVClient.checkedName("Wörk & <play> 日本 ✓") == "Wörk & <play> 日本 ✓")
        for bad in ["", "   ", "a\u{1b}[31m", "a\nb", "a\u{202e}b", "a\u{0}", "a\u{FFFE}", "\u{85}"] {
            #expect(throws: HelperError.self, "\(bad.debugDescription)") { try CalDAVClient.checkedName(bad) }
        }
        #expect(try CalDAVClient.checkedColor("#1e90ffcc") == "#1E90FF")
        #expect(throws: HelperError.self) { try CalDAVClient.checkedColor("red") }
    }
}
