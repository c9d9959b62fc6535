"""What the tests share: servers, browsers, PostgreSQL clusters, hand-made positions, random games."""
