"""Reading inputs (validated, with file/line/column errors) and writing outputs atomically."""
