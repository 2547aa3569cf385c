"""``problem2zip``: reproducible zips (zipfiles) of a package as it stands or as a judge
imports it (contents, prebuilt statements), one per problem or a problem set
(problemset); zipping decides what goes in."""
