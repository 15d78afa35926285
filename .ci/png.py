#!/usr/bin/env python3
"""A PNG that is not blank: its image data has more than a handful of byte values.

    png.py PNG WHAT   (prints the PNG's size and its count of distinct values, or fails)

Also imported by scenario-pages.py (not_blank).
"""
import struct
import sys
import zlib


def not_blank(path, what):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "%s: not a PNG" % what
    # Decompress the image data and count distinct byte values: a blank page has one or two.
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    assert len(set(raw)) > 8, "%s: the screenshot is blank" % what
    return "%s screenshot: %d bytes, %d distinct values" % (what, len(data), len(set(raw)))


if __name__ == "__main__":
    print(not_blank(sys.argv[1], sys.argv[2]))
