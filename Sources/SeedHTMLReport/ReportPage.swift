import Foundation
import SeedArchive

/// The page around the sections: a Content-Security-Policy that lets nothing be fetched
/// (`default-src 'none'`; the one style sheet and the one script allowed by their SHA-256),
/// the style sheet, a table of contents and the map's pan and zoom script.
enum ReportPage {
    static func html(title: String, sections: [(id: String, title: String, html: String)]) -> String {
        let policy =
            """
            default-src 'none'; style-src '\(hash(style))'; script-src '\(hash(script))'; img-src data:; \
            base-uri 'none'; form-action 'none'
            """
        let contents = sections.map { "<li><a href=\"#\($0.id)\">\(HTMLText.escape($0.title))</a></li>" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="seedgen report">
            <title>\(HTMLText.escape(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header>
            <h1>\(HTMLText.escape(title))</h1>
            <nav aria-label="Sections"><ul>\(contents.joined())</ul></nav>
            </header>
            <main>
            \(sections.map(\.html).joined())</main>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    /// `'sha256-BASE64'` of `text`, as a Content-Security-Policy source.
    static func hash(_ text: String) -> String {
        var digest = SHA256()
        digest.update(Array(text.utf8))
        return "sha256-" + Data(digest.finalize()).base64EncodedString()
    }

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
        header,main{max-width:1200px;margin:0 auto;padding:0 12px}
        h1{font-size:1.5em;margin:.8em 0 .3em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
        nav ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.2em 1em}
        .scroll{overflow-x:auto;max-width:100%}\
        .cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,400px),1fr));gap:0 1.5em}
        table{border-collapse:collapse;margin:.6em 0 1em;font-size:.92em}
        caption{text-align:left;font-weight:600;padding:.2em 0}
        th,td{border:1px solid #d4d4d4;padding:.2em .5em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
        thead th{background:#f1f1f1}
        .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
        .note{color:#444}details{margin:.3em 0}summary{cursor:pointer}
        .notice.error>summary{color:#a00000}.notice.warning>summary{color:#8a5a00}
        figure{margin:0}figcaption{font-size:.9em;color:#444}
        svg.map-svg{width:100%;height:auto;border:1px solid #bbb;background:#f6f8fa;touch-action:none;cursor:grab}
        svg.map-svg path{fill:none;stroke-width:1.5;vector-effect:non-scaling-stroke;opacity:.8}
        svg.map-svg path:not([stroke]){stroke:#5a7ca8}
        svg.map-svg path.off{stroke-dasharray:4 3}
        svg.map-svg circle{r:calc(2.2px * var(--k, 1));fill:#1f4e8c;stroke:#fff;stroke-width:.4;\
        vector-effect:non-scaling-stroke}
        svg.map-svg circle.o{fill:#e66b00;r:calc(5px * var(--k, 1))}
        svg.map-svg .added circle{fill:none;stroke:#0a8f3c;stroke-width:2;r:calc(5px * var(--k, 1))}
        svg.map-svg .removed circle{fill:none;stroke:#c8102e;stroke-width:2;r:calc(5px * var(--k, 1))}
        .map-tools{margin:.3em 0}.map-tools button{font:inherit;min-width:2.2em;margin-right:.3em}
        .calendar svg{width:100%;max-width:760px;height:auto;display:block;margin:.4em 0}
        .calendar text{font-size:9px;fill:#444}.calendar .yl{font-weight:600}
        .calendar rect{stroke:#fff;stroke-width:.5}
        .l0{fill:#ebedf0}.l1{fill:#c6dbef}.l2{fill:#6baed6}.l3{fill:#2171b5}.l4{fill:#08306b}
        .calendar rect.none{fill:#fde0dd;stroke:#c8102e;stroke-width:1}
        .calendar rect.x{stroke:#e66b00;stroke-width:1.6}
        @media (max-width:600px){body{font-size:14px}th,td{padding:.15em .3em}}
        """

    static let script = """
        document.querySelectorAll('svg.map-svg').forEach(function(svg){
        var W=+svg.dataset.width,H=+svg.dataset.height,v={x:0,y:0,w:W,h:H},drag=null;
        function set(){svg.setAttribute('viewBox',[v.x,v.y,v.w,v.h].join(' '));\
        svg.style.setProperty('--k',String(v.w/W));}
        function zoom(f,cx,cy){var w=Math.min(W*4,Math.max(W/400,v.w*f));f=w/v.w;\
        v.x=cx-(cx-v.x)*f;v.y=cy-(cy-v.y)*f;v.w=w;v.h*=f;set();}
        function at(e){var r=svg.getBoundingClientRect();\
        return{x:v.x+(e.clientX-r.left)/r.width*v.w,y:v.y+(e.clientY-r.top)/r.height*v.h};}
        svg.addEventListener('wheel',function(e){e.preventDefault();var p=at(e);\
        zoom(e.deltaY<0?0.8:1.25,p.x,p.y);},{passive:false});
        svg.addEventListener('pointerdown',function(e){drag={x:e.clientX,y:e.clientY};\
        svg.setPointerCapture(e.pointerId);});
        svg.addEventListener('pointermove',function(e){if(!drag)return;var r=svg.getBoundingClientRect();\
        v.x-=(e.clientX-drag.x)/r.width*v.w;v.y-=(e.clientY-drag.y)/r.height*v.h;\
        drag={x:e.clientX,y:e.clientY};set();});
        svg.addEventListener('pointerup',function(){drag=null;});
        svg.closest('figure').querySelectorAll('[data-zoom]').forEach(function(b){\
        b.addEventListener('click',function(){var k=b.dataset.zoom;\
        if(k==='reset'){v={x:0,y:0,w:W,h:H};set();}else{zoom(k==='in'?0.5:2,v.x+v.w/2,v.y+v.h/2);}});});
        set();});
        """
}
