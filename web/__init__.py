"""The browser front end (`fechtbuch serve`): see docs/web.md."""
