import Foundation

/// HTML text: escaping, and the few elements every section writes (headings, tables with a
/// caption, notes). Every value from a seed goes through `escape` before it reaches the page.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A table with a caption and a header row. Cells are text (escaped here); the columns in
    /// `numeric` are aligned right.
    static func table(caption: String, headers: [String], rows: [[String]], numeric: Set<Int> = []) -> String {
        var html = "<div class=\"scroll\"><table>\n<caption>\(escape(caption))</caption>\n<thead><tr>"
        for (index, header) in headers.enumerated() {
            html += "<th scope=\"col\"\(numeric.contains(index) ? " class=\"num\"" : "")>\(escape(header))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr>"
            for (index, cell) in row.enumerated() {
                html += "<td\(numeric.contains(index) ? " class=\"num\"" : "")>\(escape(cell))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }

    /// A section with an `id`, a heading of level 2 and `body`.
    static func section(id: String, title: String, body: String) -> String {
        """
        <section id="\(id)" aria-labelledby="\(id)-title">
        <h2 id="\(id)-title">\(escape(title))</h2>
        \(body)</section>

        """
    }

    /// A paragraph of plain text (escaped).
    static func note(_ text: String, className: String = "note") -> String {
        "<p class=\"\(className)\">\(escape(text))</p>\n"
    }

    /// 1,234,567.
    static func count<Number: BinaryInteger>(_ value: Number) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// 12.3 MB.
    static func bytes(_ value: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var size = Double(value), unit = 0
        while size >= 1000 && unit < units.count - 1 {
            size /= 1000
            unit += 1
        }
        return unit == 0 ? "\(value) bytes" : String(format: "%.1f %@", size, units[unit])
    }

    /// A coordinate or a length in the map's units, with at most one decimal.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int64(tenths / 10)) }
        return String(format: "%.1f", tenths / 10)
    }
}
