"""The SQL the ORM has no words for, in one place, each with its reason; every other query goes
through the ORM, which keeps table and column names out of our code (a schema change is found by
the models alone). Before adding one here, measure: docs/performance.md says why the version
claim and the polls went back to the ORM."""

from django.db import connection


def database_answer() -> None:
    """Ask the database one thing, raising DatabaseError if it cannot answer: the health check's
    probe. `SELECT 1` reads no table, which no ORM query can say, so it answers before the first
    migration and costs nothing."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def snapshot_begin() -> None:
    """Make the PostgreSQL transaction just begun (this must be its first statement) read the
    database as it was at its first read, and nothing but read. Django sets an isolation level
    only for every transaction of a connection (`OPTIONS`), not for one."""
    with connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
