#!/usr/bin/env python3
"""Write one big NeTEx file by repeating the frames of a NeTEx export (a zip or .xml files)
with their ids renamed per copy (FLB:Line:42 -> FLB7:Line:42), so the ids stay unique and
every reference still resolves. For memory measurements: seedgen's peak RSS must stay flat.

    scripts/make_netex.py ../shared/data/xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip \
        --megabytes 200 --out /tmp/netex-200mb.xml
"""
import argparse, re, sys, zipfile

def documents(path):
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            return [archive.read(name).decode("utf-8") for name in sorted(archive.namelist()) if name.endswith(".xml")]
    return [open(path, encoding="utf-8").read()]

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--megabytes", type=float, default=200)
    parser.add_argument("--out", required=True)
    parser.add_argument("--codespace", default="FLB", help="the id prefix renamed per copy")
    args = parser.parse_args()
    frames = []
    head = None
    for path in args.inputs:
        for text in documents(path):
            start, end = text.index("<dataObjects>") + len("<dataObjects>"), text.rindex("</dataObjects>")
            head = head or text[:start]
            frames.append(text[start:end])
    body = "".join(frames)
    pattern = re.compile(re.escape(args.codespace) + ":")
    target = int(args.megabytes * 1_000_000)
    written = 0
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(head)
        copy = 0
        while written < target:
            chunk = pattern.sub(f"{args.codespace}{copy}:", body)
            out.write(chunk)
            written += len(chunk.encode("utf-8"))
            copy += 1
        out.write("</dataObjects>\n</PublicationDelivery>\n")
    print(f"{args.out}: {copy} copies, {written / 1e6:.0f} MB", file=sys.stderr)

if __name__ == "__main__":
    main()
