"""The full-screen table (Textual). Imported only when the table opens: the line and JSON
modes never load Textual."""
