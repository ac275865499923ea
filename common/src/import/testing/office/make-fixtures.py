"""Regenerates the files of office-files.test.ts written by python-docx (pip python-docx 1.2.0):
run `python3 make-fixtures.py` in this folder.

- logo.png, chart.png: one green pixel each, the pictures pandoc puts in the ODT of the metafile test.
- style-lists.docx: python-docx's own "List Number" and "List Bullet" paragraphs, numbered through
  the paragraph style (w:numPr in the style, none on the paragraph), as Word's list styles are.
"""
import struct
import zlib

import docx


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


pixel = (
    b"\x89PNG\r\n\x1a\n"
    + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(b"\x00\x00\xff\x00"))
    + chunk(b"IEND", b"")
)
for name in ("logo.png", "chart.png"):
    with open(name, "wb") as out:
        out.write(pixel)

document = docx.Document()
document.core_properties.title = "Style lists"
document.add_paragraph("Steps in order:")
for text in ("Mix the flour", "Add the water", "Bake it"):
    document.add_paragraph(text, style="List Number")
document.add_paragraph("Things to bring:")
for text in ("Apples", "Pears"):
    document.add_paragraph(text, style="List Bullet")
document.add_paragraph("The end.")
document.save("style-lists.docx")
