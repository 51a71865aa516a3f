import Foundation
import Testing
@testable import todo_sync

@Suite("todo-sync pieces: netrc, multistatus, carriage returns")
struct HelperUnitTests {
    @Test("netrc: machine, default, quoted values, macdef and comments")
    func netrc() {
        let text = """
            # comment
            macdef init
            machine 127.0.0.1 login mallory password evil

            machine example.org login bob password "a b\\"c"
            machine 127.0.0.1 login alice password one
            default login anyone password two
            """
        #expect(Netrc.entry(in: text, host: "example.org", login: nil) == Netrc.Entry(login: "bob", password: "a b\"c"))
        #expect(Netrc.entry(in: text, host: "127.0.0.1", login: nil) == Netrc.Entry(login: "alice", password: "one"))
        #expect(Netrc.entry(in: text, host: "127.0.0.1", login: "carol") == nil)  // no entry for carol; mallory's is a macro
        #expect(Netrc.entry(in: text, host: "other.net", login: nil) == Netrc.Entry(login: "anyone", password: "two"))
        #expect(Netrc.entry(in: "machine h login a password p", host: "x", login: nil) == nil)
    }

    @Test("multistatus: prefixes, default namespace, CR LF kept in text and CDATA, status lines")
    func multistatus() throws {
        let xml = "<?xml version=\"1.0\"?>\r\n<x:multistatus xmlns:x=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">\r\n"
            + "<x:sync-token>tok</x:sync-token>"
            + "<x:response><x:href>/c/a%20b.ics</x:href><x:propstat><x:prop><x:getetag>\"e1\"</x:getetag>"
            + "<c:calendar-data>BEGIN:VCALENDAR\r\nX:1 &amp; 2\r\nEND:VCALENDAR\r\n</c:calendar-data></x:prop>"
            + "<x:status>HTTP/1.1 200 OK</x:status></x:propstat></x:response>\r\n"
            + "<response xmlns=\"DAV:\"><href>/c/b.ics</href><propstat><prop><getetag>\"e2\"</getetag>"
            + "<calendar-data xmlns=\"urn:ietf:params:xml:ns:caldav\"><![CDATA[A\r\nB <]]>\r\n</calendar-data></prop>"
            + "<status>HTTP/1.1 200 OK</status></propstat></response>"
            + "<x:response><x:href>/c/gone.ics</x:href><x:status>HTTP/1.1 404 Not Found</x:status></x:response>"
            + "</x:multistatus>"
        let status = try Multistatus(Data(xml.utf8))
        #expect(status.syncToken == "tok")
        #expect(status.responses.map(\.href) == ["/c/a%20b.ics", "/c/b.ics", "/c/gone.ics"])
        #expect(status.responses[0].etag == "\"e1\"")
        #expect(status.responses[0].prop(caldavNS, "calendar-data")?.text == "BEGIN:VCALENDAR\r\nX:1 & 2\r\nEND:VCALENDAR\r\n")
        #expect(status.responses[1].prop(caldavNS, "calendar-data")?.text == "A\r\nB <\r\n")
        #expect(status.responses[2].status == 404)
        #expect(throws: HelperError.self) { try Multistatus(Data("<not xml".utf8)) }
    }
}
