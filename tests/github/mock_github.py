#!/usr/bin/env python3
"""A tiny stand-in for the GitHub REST API, for tests only. Listens on 127.0.0.1 only.

    mock_github.py --log requests.jsonl [--scenario scenario.json] [--port 0] [--files DIR]

Prints "PORT <n>" on stdout once it listens, then serves until killed (SIGTERM/SIGINT) or until
a POST to /__shutdown. Every request is appended to the log as one JSON line:
    {"method": "POST", "path": "/repos/o/r/check-runs", "query": "", "headers": {...}, "body": ...}
(`body` is the parsed JSON, or the raw text when it is not JSON, or null when empty).

The scenario (JSON) scripts answers per route; a route's answers are used in order and the last
one repeats (an answer with "apply": true first does what the default route would, e.g. a POST
that creates the resource and then answers 502):
    {"routes": [{"method": "POST", "path": "/repos/o/r/check-runs",
                 "responses": [{"status": 500, "body": {"message": "boom"}},
                               {"status": 201, "body": {"id": 7}, "headers": {"Retry-After": "2"}}]}],
     "comments": {"per_page": 2, "initial": [{"id": 1, "body": "hello"}]},
     "viewer": "octo-bot", "author": "octo-bot"}
(`viewer`: the token's login for GET /user, absent = an installation token; `author`: the login
posted comments get, default the viewer or github-actions[bot].)
Without a matching route the server behaves like a small GitHub:
    POST  /repos/{o}/{r}/check-runs                 -> 201 {"id": n, "html_url": ...}
    PATCH /repos/{o}/{r}/check-runs/{id}            -> 200 {"id": id}
    GET   /repos/{o}/{r}/commits/{sha}/check-runs   -> 200 {"total_count", "check_runs"} created so far
    GET   /user                                     -> 200 {"login": viewer}, or 403 without "viewer"
    GET   /repos/{o}/{r}/issues/{n}/comments        -> 200 page of stored comments, Link rel="next"
    POST  /repos/{o}/{r}/issues/{n}/comments        -> 201 stored comment
    PATCH /repos/{o}/{r}/issues/comments/{id}       -> 200 updated comment (404 if unknown)
    POST  /graphql (or /api/graphql)                -> nodes(ids: ...) of stored comments, by their
                                                       node_id ("IC_<id>" unless given):
                                                       {"data": {"nodes": [{"id", "isMinimized"}]}};
                                                       a comment's "minimized": true sets isMinimized
    GET   /<path> of a file under --files DIR       -> 200 its bytes (release assets:
                                                       /{o}/{r}/releases/download/{tag}/{name})
    anything else                                   -> 404 {"message": "Not Found"}
"""
import argparse
import json
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class State:
    def __init__(self, scenario, log_path, files=None):
        self.lock = threading.Lock()
        self.files = os.path.realpath(files) if files else None
        self.routes = []
        for r in scenario.get("routes", []):
            self.routes.append({"method": r.get("method", "GET").upper(), "path": r["path"],
                                "responses": list(r.get("responses", [])), "used": 0})
        comments = scenario.get("comments", {})
        self.per_page = int(comments.get("per_page", 30))
        self.comments = [dict(c) for c in comments.get("initial", [])]
        for c in self.comments:  # REST comments carry their GraphQL id
            if "id" in c:
                c.setdefault("node_id", "IC_%d" % c["id"])
        self.next_id = 1000 + max([c.get("id", 0) for c in self.comments] + [0])
        self.next_check = 1
        self.check_runs = []
        # The token's identity: a login answers GET /user; None = an installation token (403).
        self.viewer = scenario.get("viewer")
        self.author = scenario.get("author", self.viewer or "github-actions[bot]")
        self.log = open(log_path, "a", encoding="utf-8")


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # quiet: the JSON log is the record
            pass

        def _answer(self, status, body=None, headers=None):
            data = b"" if body is None else json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, str(v))
            self.end_headers()
            self.wfile.write(data)

        def _handle(self):
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw
            with state.lock:
                state.log.write(json.dumps({
                    "method": self.command, "path": parts.path, "query": parts.query,
                    "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}) + "\n")
                state.log.flush()
                if parts.path == "/__shutdown":
                    self._answer(200, {})
                    threading.Thread(target=self.server.shutdown, daemon=True).start()
                    return
                for r in state.routes:
                    if r["method"] == self.command and r["path"] == parts.path and r["responses"]:
                        resp = r["responses"][min(r["used"], len(r["responses"]) - 1)]
                        r["used"] += 1
                        if resp.get("apply"):  # do the default work, then answer as scripted
                            self._default(parts, body, answer=False)
                        self._answer(int(resp.get("status", 200)), resp.get("body"), resp.get("headers"))
                        return
                self._default(parts, body)

        def _default(self, parts, body, answer=True):
            if not answer:
                saved = self._answer
                self._answer = lambda *a, **k: None
                try:
                    return self._default(parts, body)
                finally:
                    self._answer = saved
            path, query = parts.path, parse_qs(parts.query)
            m = re.fullmatch(r"/repos/[^/]+/[^/]+/commits/([^/]+)/check-runs", path)
            if m and self.command == "GET":
                runs = [c for c in state.check_runs if c.get("head_sha") == m.group(1)]
                return self._answer(200, {"total_count": len(runs), "check_runs": runs})
            if path == "/user" and self.command == "GET":
                if state.viewer:
                    return self._answer(200, {"login": state.viewer})
                return self._answer(403, {"message": "Resource not accessible by integration"})
            if state.files and self.command == "GET":
                f = os.path.realpath(os.path.join(state.files, path.lstrip("/")))
                if f.startswith(state.files + os.sep) and os.path.isfile(f):
                    with open(f, "rb") as fh:
                        data = fh.read()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return None
            m = re.fullmatch(r"/repos/[^/]+/[^/]+/check-runs", path)
            if m and self.command == "POST":
                cid = state.next_check
                state.next_check += 1
                b = body if isinstance(body, dict) else {}
                state.check_runs.append({"id": cid, "name": b.get("name"), "head_sha": b.get("head_sha"),
                                         "external_id": b.get("external_id")})
                return self._answer(201, {"id": cid, "html_url": "http://mock/check-runs/%d" % cid})
            m = re.fullmatch(r"/repos/[^/]+/[^/]+/check-runs/(\d+)", path)
            if m and self.command == "PATCH":
                return self._answer(200, {"id": int(m.group(1))})
            m = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/comments", path)
            if m and self.command == "GET":
                per_page = min(state.per_page, int(query.get("per_page", ["30"])[0]))
                page = int(query.get("page", ["1"])[0])
                items = state.comments[(page - 1) * per_page: page * per_page]
                headers = {}
                if page * per_page < len(state.comments):
                    host = self.headers.get("Host", "127.0.0.1")
                    headers["Link"] = '<http://%s%s?per_page=%d&page=%d>; rel="next"' % (
                        host, path, per_page, page + 1)
                return self._answer(200, items, headers)
            if m and self.command == "POST":
                state.next_id += 1
                c = {"id": state.next_id, "node_id": "IC_%d" % state.next_id, "body": (body or {}).get("body", ""),
                     "user": {"login": state.author, "type": "Bot"},
                     "html_url": "http://mock/comments/%d" % state.next_id}
                state.comments.append(c)
                return self._answer(201, c)
            if path in ("/graphql", "/api/graphql") and self.command == "POST":
                ids = ((body or {}).get("variables") or {}).get("ids") or [] if isinstance(body, dict) else []
                nodes = []
                for i in ids:
                    hit = [c for c in state.comments if c.get("node_id", "IC_%d" % c["id"]) == i]
                    nodes.append({"id": i, "isMinimized": bool(hit[0].get("minimized"))} if hit else None)
                return self._answer(200, {"data": {"nodes": nodes}})
            m = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/comments/(\d+)", path)
            if m and self.command == "PATCH":
                for c in state.comments:
                    if c["id"] == int(m.group(1)):
                        c["body"] = (body or {}).get("body", "")
                        return self._answer(200, c)
            return self._answer(404, {"message": "Not Found"})

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

    return Handler


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--scenario")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--files", help="serve GET requests for files under this folder")
    args = ap.parse_args()
    scenario = {}
    if args.scenario:
        with open(args.scenario, encoding="utf-8") as f:
            scenario = json.load(f)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(State(scenario, args.log, args.files)))
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()
