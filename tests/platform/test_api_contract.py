"""The API as a contract (issue 24): the schema declares what the server does — each
operation's errors in the one error shape, security exactly as enforced (checked by
asking anonymously), the upload alone as multipart, the replay's 304, path patterns —
and every path under /api/ answers JSON, any method, a token's POST included (never
Django's HTML 404 or CSRF page; the control: a page outside /api/ still gets those). A
body is read only in the media type its operation declares: any other is a 415."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
import yaml
from django.test import Client
from rest_framework.test import APIClient

from catan_arena.accounts.models import ApiToken, User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from tests.support.api import API, client_of, error

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema() -> dict[str, Any]:
    reply = APIClient().get(f"{API}/schema/")
    assert reply.status_code == 200
    loaded: dict[str, Any] = yaml.safe_load(reply.content)
    return loaded


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, op)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if method != "parameters"
    ]


def test_every_operation_declares_its_errors_in_the_one_shape(schema: dict[str, Any]) -> None:
    ref = "#/components/schemas/ApiError"
    assert set(schema["components"]["schemas"]["ApiError"]["properties"]) == {"error"}
    for method, path, op in operations(schema):
        errors = {code: r for code, r in op["responses"].items() if code >= "400"}
        assert "401" in errors, (method, path)
        for code, answer in errors.items():
            assert answer["content"]["application/json"]["schema"]["$ref"] == ref, (path, code)
        if "{" in path:
            assert "404" in errors, (method, path)
        assert ("415" in errors) == ("requestBody" in op), (method, path)  # the body's type
    upload = schema["paths"]["/api/v1/bots/{name}/versions/"]["post"]
    assert {"400", "401", "403", "404", "409", "413", "429"} <= set(upload["responses"])
    assert "429" in schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    assert "429" not in schema["paths"]["/api/v1/ab-tests/"]["get"]["responses"]  # a read
    replay = schema["paths"]["/api/v1/matches/{id}/replay/"]["get"]
    assert "304" in replay["responses"]
    assert any(p["name"] == "If-None-Match" for p in replay["parameters"])


def test_bodies_are_json_but_the_upload_and_paths_have_their_patterns(
    schema: dict[str, Any],
) -> None:
    for method, path, op in operations(schema):
        kinds = set(op.get("requestBody", {}).get("content", {}))
        if path.endswith("/versions/") and method == "POST":
            assert kinds == {"multipart/form-data"}
        else:
            assert kinds <= {"application/json"}, (method, path, kinds)
        for parameter in op.get("parameters", []):
            if parameter["in"] == "path" and parameter["schema"]["type"] == "string":
                assert parameter["schema"]["pattern"] == "^[-a-zA-Z0-9_]+$", (path, parameter)
            elif parameter["in"] == "path":
                assert "minimum" in parameter["schema"], (path, parameter)


JSON, MULTIPART, FORM = (
    "application/json",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
)


def send(client: APIClient, url: str, kind: str, data: dict[str, str]) -> Any:
    """POST ``data`` as a body of media type ``kind``."""
    if kind == FORM:
        return client.post(url, urlencode(data), content_type=FORM)
    return client.post(url, data, format="multipart" if kind == MULTIPART else "json")


def test_a_body_is_read_only_in_the_media_type_the_schema_declares(
    schema: dict[str, Any],
) -> None:
    """Every operation with a body, by an organizer (let through to the body on each),
    declares one media type: each of the two others is a 415 in the one error shape;
    the declared one (the control) is read — the answer is about its fields or a
    success, never 415."""
    organizer = grant_role(User.objects.create_user("ada", password="x-4521-y"), ORGANIZERS)
    client = client_of(organizer)
    checked = refused = 0
    for method, path, op in operations(schema):
        declared = set(op.get("requestBody", {}).get("content", {}))
        if not declared:
            continue
        assert method == "POST", path  # what send() makes
        url = path.replace("{id}", "1").replace("{name}", "newbot")
        for kind in (JSON, MULTIPART, FORM):
            reply = send(client, url, kind, {"name": "cup"})
            assert reply["Content-Type"] == "application/json", (path, kind, reply.content[:200])
            if kind in declared:
                assert reply.status_code != 415, (path, kind, reply.content[:200])
            else:
                body = error(reply, 415)
                assert body["code"] == "unsupported_media_type", (path, kind)
                assert kind in body["message"], body
                refused += 1
        checked += 1
    assert checked >= 7 and refused == 2 * checked


def test_a_form_encoded_log_in_is_415_and_the_same_as_json_gets_a_key() -> None:
    User.objects.create_user("ada", password="x-4521-y")
    pair = {"username": "ada", "password": "x-4521-y", "name": "cli"}
    for kind in (FORM, MULTIPART):
        reply = send(APIClient(), f"{API}/auth/token/", kind, pair)
        assert reply["Content-Type"] == "application/json"
        assert error(reply, 415)["code"] == "unsupported_media_type"
    assert not ApiToken.objects.exists()  # the body was not read
    made = send(APIClient(), f"{API}/auth/token/", JSON, pair)  # the control
    assert made.status_code == 201 and made.json()["key"], made.content[:200]


def test_the_auth_schemes_are_the_headers_the_server_reads(schema: dict[str, Any]) -> None:
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == schemes["bearerAuth"] | {"type": "http", "scheme": "bearer"}
    assert schemes["tokenAuth"]["name"] == "Authorization"
    assert "Token <key>" in schemes["tokenAuth"]["description"]
    assert "security" not in schema["paths"]["/api/v1/auth/token/"]["post"]  # how keys are got
    me = User.objects.create_user("ada", password="x-4521-y")
    from catan_arena.accounts.tokens import create_token

    _, key = create_token(me, "t")
    for header in (f"Bearer {key}", f"Token {key}"):
        reply = APIClient().get(f"{API}/me/", HTTP_AUTHORIZATION=header)
        assert reply.status_code == 200 and reply.json()["username"] == "ada"
    error(APIClient().get(f"{API}/me/", HTTP_AUTHORIZATION=key), 401)  # the bare key: no


def test_security_is_declared_exactly_as_enforced(schema: dict[str, Any]) -> None:
    """Every GET, asked anonymously: let through exactly where the schema declares no
    security requirement (or lists ``{}``; the tournaments and standings are public)."""
    public = {"/api/v1/tournaments/", "/api/v1/tournaments/{id}/standings/"}
    checked = 0
    for method, path, op in operations(schema):
        anonymous = {} in op.get("security", [{}])  # none declared: anyone
        if method != "GET" or path.endswith("/schema/"):
            continue
        if path in public:
            assert anonymous, path
        url = path.replace("{id}", "1").replace("{seat}", "0").replace("{name}", "nobody")
        status = APIClient().get(url).status_code
        assert (status not in (401, 403)) == anonymous, (path, status)
        checked += 1
    assert checked >= 15
    assert {} not in schema["paths"]["/api/v1/me/"]["get"]["security"]  # the control


@pytest.mark.parametrize(
    "url",
    [
        f"{API}/nope/",
        f"{API}/bots/bad name!/versions/",
        f"{API}/versions/abc/",
        f"{API}/versions/99999999999999999999/",
        "/api/v2/bots/",
        "/api/",
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_every_path_under_the_api_answers_json(url: str, method: str) -> None:
    author = User.objects.create_user("ada", password="x-4521-y")
    for client in (Client(enforce_csrf_checks=True), client_of(author)):
        client.enforce_csrf_checks = True
        reply = getattr(client, method)(url)
        assert reply["Content-Type"] == "application/json", reply.content[:200]
        assert error(reply, 404)["code"] == "not_found"


def test_the_control_a_page_outside_the_api_keeps_django_answers() -> None:
    client = Client(enforce_csrf_checks=True)
    reply = client.post("/sign-up/")
    assert reply.status_code == 403 and "text/html" in reply["Content-Type"]
    assert re.search(b"CSRF", reply.content)
    reply = client.get("/no-such-page/")
    assert reply.status_code == 404 and "text/html" in reply["Content-Type"]
