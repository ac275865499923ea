"""Regenerates the files of office-files.test.ts written by python-docx (pip python-docx 1.2.0):
run `python3 make-fixtures.py` in this folder.

- style-lists.docx: python-docx's own "List Number" and "List Bullet" paragraphs, numbered through
  the paragraph style (w:numPr in the style, none on the paragraph), as Word's list styles are.
"""
import docx

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
