#!/usr/bin/env python3
"""Writes a synthetic iTunes "Top Songs" Atom feed shaped like Apple's, for XML benchmarks.

    scripts/make_xml_feed.py ENTRIES OUT.xml [--categories N]

Entries cycle through N categories (default 40); every value is deterministic.
"""
import argparse

HEAD = ('<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n'
        '  <id>https://itunes.apple.com/us/rss/topsongs/xml</id>\n  <title>iTunes Store: Top Songs</title>\n'
        '  <updated>2013-02-18T12:04:40-07:00</updated>\n')

ENTRY = '''  <entry>
    <updated>2013-02-18T12:04:40-07:00</updated>
    <id im:id="{id}">https://itunes.apple.com/us/album/song-{n}/id{id}?i={id}&amp;uo=2</id>
    <title>Song {n} - Artist {a}</title>
    <im:name>Song {n}</im:name>
    <link rel="alternate" type="text/html" href="https://itunes.apple.com/us/album/song-{n}/id{id}?uo=2"/>
    <im:contentType term="Music" label="Music"><im:contentType term="Track" label="Track"/></im:contentType>
    <category im:id="{c}" term="Genre {c}" scheme="https://itunes.apple.com/us/genre/id{c}?uo=2" label="Genre {c}"/>
    <link title="Preview" rel="enclosure" type="audio/x-m4a" href="http://a1.mzstatic.com/us/r1000/{n}/preview.m4a" im:assetType="preview"><im:duration>30000</im:duration></link>
    <im:artist href="https://itunes.apple.com/us/artist/artist-{a}/id{a}?uo=2">Artist {a} &amp; Friends</im:artist>
    <im:price amount="{price}" currency="USD">${price}</im:price>
    <im:image height="55">http://a1.mzstatic.com/us/r1000/{n}/55x55-75.jpg</im:image>
    <im:image height="60">http://a1.mzstatic.com/us/r1000/{n}/60x60-50.jpg</im:image>
    <im:image height="170">http://a1.mzstatic.com/us/r1000/{n}/170x170-75.jpg</im:image>
    <rights>{year} Label {a}</rights>
    <im:releaseDate label="February 14, {year}">{year}-02-14T00:00:00-07:00</im:releaseDate>
    <im:collection><im:name>Album {a}</im:name><link rel="alternate" type="text/html" href="https://itunes.apple.com/us/album/album-{a}/id{a}?uo=2"/><im:contentType term="Music" label="Music"><im:contentType term="Album" label="Album"/></im:contentType></im:collection>
    <content type="html">&lt;table&gt;&lt;tr&gt;&lt;td&gt;Song {n} by Artist {a}&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</content>
  </entry>
'''

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=int)
    parser.add_argument("out")
    parser.add_argument("--categories", type=int, default=40)
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(HEAD)
        for n in range(1, args.entries + 1):
            out.write(ENTRY.format(n=n, id=500000000 + n, a=n % 9973, c=n % args.categories + 1,
                                   price="%.5f" % (0.69 + (n % 3) * 0.3), year=1990 + n % 30))
        out.write("</feed>\n")

if __name__ == "__main__":
    main()
