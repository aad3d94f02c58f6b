import Foundation

/// The HTML of a gallery page: one file with inline styles and a small inline filter script.
struct GalleryPage {
    let gallery: Gallery
    /// Saved picture paths relative to the page, by item index.
    let thumbnails: [Int: String]

    func html() -> String {
        let cards = gallery.items.enumerated().map { index, item in card(item, image: thumbnails[index]) }
        let count = gallery.items.count
        let subtitle = gallery.subtitle.map { "<p class=\"subtitle\">\(escape($0))</p>" } ?? ""
        let empty = count == 0 ? "<p class=\"empty\">Nothing to show.</p>" : ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(escape(gallery.generator))">
            <title>\(escape(gallery.title))</title>
            <style>\(Self.styles)</style>
            </head>
            <body>
            <header>
              <div class="heading">
                <h1>\(escape(gallery.title))</h1>
                \(subtitle)
              </div>
              <label class="filter"><span>Filter</span>
                <input id="filter" type="search" placeholder="Type to filter \(count) item\(count == 1 ? "" : "s")…" autocomplete="off">
              </label>
            </header>
            <main id="grid">
            \(cards.joined(separator: "\n"))
            </main>
            \(empty)
            <p class="empty" id="no-match" hidden>No item matches the filter.</p>
            <footer>Written by \(escape(gallery.generator)). Works offline: pictures are in the thumbnails folder beside this page.</footer>
            <script>\(Self.script)</script>
            </body>
            </html>

            """
    }

    /// The URL as text when it is an http or https address with a host, else `nil`.
    static func webAddress(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url.absoluteString
    }

    private func card(_ item: GalleryItem, image: String?) -> String {
        let initial = item.title.first.map { escape(String($0).uppercased()) } ?? "?"
        let picture =
            image.map {
                "<a class=\"picture\" href=\"\(escape($0))\"><img src=\"\(escape($0))\" alt=\"\(escape(item.title))\" loading=\"lazy\"></a>"
            } ?? "<div class=\"picture placeholder\" aria-hidden=\"true\">\(initial)</div>"
        // A link is the service's data: only a web address becomes one (never `javascript:` or `file:`).
        let title =
            item.link.flatMap(Self.webAddress).map {
                "<a href=\"\(escape($0))\">\(escape(item.title))</a>"
            } ?? escape(item.title)
        let badge = item.badge.map { "<span class=\"badge\">\(escape($0))</span>" } ?? ""
        let subtitle = item.subtitle.map { "<p class=\"meta\">\(escape($0))</p>" } ?? ""
        let details =
            item.details.isEmpty
            ? "" : "<ul>" + item.details.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
        let searchable = ([item.title, item.subtitle ?? "", item.badge ?? ""] + item.details).joined(separator: " ")
        return """
            <article class="card" data-text="\(escape(searchable.lowercased()))">
              \(picture)
              <div class="body">\(badge)<h2>\(title)</h2>\(subtitle)\(details)</div>
            </article>
            """
    }

    private func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    static let styles = """
        :root{--bg:#f6f4ef;--card:#fff;--ink:#1d1b18;--muted:#6b665d;--line:#e4dfd4;--accent:#9a3b1b;
        --shadow:0 1px 2px rgba(0,0,0,.06),0 6px 18px rgba(0,0,0,.06)}
        @media (prefers-color-scheme:dark){:root{--bg:#151412;--card:#1f1d1a;--ink:#ece8e1;--muted:#a39d92;
        --line:#2e2b27;--accent:#e0895f;--shadow:0 1px 2px rgba(0,0,0,.4)}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--ink);
        font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        header{display:flex;flex-wrap:wrap;gap:16px 32px;align-items:flex-end;justify-content:space-between;
        padding:40px 40px 24px;border-bottom:1px solid var(--line)}
        h1{margin:0;font:600 30px/1.15 Georgia,"Times New Roman",serif;letter-spacing:-.01em}
        .subtitle{margin:6px 0 0;color:var(--muted)}
        .filter{display:flex;flex-direction:column;gap:4px;font-size:12px;color:var(--muted);
        text-transform:uppercase;letter-spacing:.08em}
        .filter input{width:260px;padding:9px 12px;border:1px solid var(--line);border-radius:8px;
        background:var(--card);color:var(--ink);font:inherit;font-size:15px;text-transform:none;letter-spacing:0}
        .filter input:focus{outline:2px solid var(--accent);outline-offset:1px}
        main{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:24px;padding:32px 40px}
        .card{display:flex;flex-direction:column;background:var(--card);border-radius:12px;overflow:hidden;
        box-shadow:var(--shadow);border:1px solid var(--line)}
        .card[hidden]{display:none}
        .picture{display:block;aspect-ratio:1/1;background:var(--line)}
        .picture img{width:100%;height:100%;object-fit:cover;display:block}
        .placeholder{display:flex;align-items:center;justify-content:center;font:600 64px Georgia,serif;
        color:var(--muted);background:repeating-linear-gradient(45deg,var(--line) 0 10px,transparent 10px 20px)}
        .body{padding:14px 16px 18px;position:relative}
        h2{margin:0 0 4px;font-size:16px;line-height:1.3;font-weight:600}
        h2 a{color:inherit;text-decoration:none}
        h2 a:hover{color:var(--accent);text-decoration:underline}
        .meta{margin:0;color:var(--accent);font-size:13px;font-weight:500}
        ul{margin:8px 0 0;padding:0;list-style:none;color:var(--muted);font-size:13px}
        li+li{margin-top:2px}
        .badge{float:right;margin:0 0 4px 8px;padding:1px 7px;border-radius:999px;border:1px solid var(--line);
        color:var(--muted);font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
        .empty{padding:0 40px;color:var(--muted)}
        footer{padding:16px 40px 40px;color:var(--muted);font-size:12px}
        @media (max-width:600px){header,main{padding-left:16px;padding-right:16px}main{gap:16px}}
        """

    static let script = """
        (function(){var input=document.getElementById('filter'),cards=document.querySelectorAll('.card'),
        none=document.getElementById('no-match');input.addEventListener('input',function(){
        var words=input.value.toLowerCase().split(/\\s+/).filter(Boolean),shown=0;
        cards.forEach(function(card){var text=card.getAttribute('data-text'),
        match=words.every(function(w){return text.indexOf(w)>=0});card.hidden=!match;if(match)shown++});
        none.hidden=shown>0||cards.length===0;});})();
        """
}
