"""Drives `massgen serve` with the real `openai` package, as an API client would.

Usage: openai_client.py BASE_URL API_KEY [checks|disconnect|wait]. `checks` (the default)
prints one JSON object with what each check saw; `disconnect` opens a stream, reads its
first chunk and hangs up; `wait` makes one request and prints the HTTP status it ended with.
"""

import json
import sys
import threading

import openai
from openai import OpenAI

base, key = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "checks"
client = OpenAI(base_url=f"{base}/v1", api_key=key, max_retries=0, timeout=60)
seen = {}

if mode == "disconnect":
    stream = client.chat.completions.create(
        model="massgen", messages=[{"role": "user", "content": "q"}], stream=True
    )
    next(iter(stream))
    stream.close()
    print("closed", flush=True)
    sys.exit(0)

if mode == "wait":
    print("sending", flush=True)
    try:
        client.chat.completions.create(model="massgen", messages=[{"role": "user", "content": "q"}])
        print(200)
    except openai.APIStatusError as error:
        print(error.status_code)
    sys.exit(0)

question = [{"role": "user", "content": "What is 2+2?"}]

reply = client.chat.completions.create(model="massgen", messages=question)
seen["whole"] = {
    "content": reply.choices[0].message.content,
    "finish_reason": reply.choices[0].finish_reason,
    "total_tokens": reply.usage.total_tokens,
}

content, reasoning, finish = "", "", None
stream = client.chat.completions.create(
    model="massgen",
    messages=question,
    stream=True,
    stream_options={"include_usage": True},
    extra_body={"include_reasoning": True},
)
usage = None
for chunk in stream:
    if chunk.usage is not None:
        usage = chunk.usage.total_tokens
    for choice in chunk.choices:
        content += choice.delta.content or ""
        reasoning += getattr(choice.delta, "reasoning_content", None) or ""
        finish = choice.finish_reason or finish
seen["stream"] = {"content": content, "reasoning": reasoning, "finish_reason": finish, "usage": usage}

seen["models"] = [model.id for model in client.models.list()]

history = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Capital of France?"},
    {"role": "assistant", "content": "Paris."},
    {"role": "user", "content": "And of Germany?"},
]
seen["history"] = client.chat.completions.create(model="massgen", messages=history).choices[0].message.content


def status_of(call):
    try:
        call()
        return 200
    except openai.APIStatusError as error:
        return error.status_code


seen["errors"] = {
    "bad_messages": status_of(lambda: client.chat.completions.create(model="massgen", messages=[])),
    "unknown_model": status_of(lambda: client.chat.completions.create(model="gpt-9", messages=question)),
    "wrong_key": status_of(
        lambda: OpenAI(base_url=f"{base}/v1", api_key="sk-wrong", max_retries=0).chat.completions.create(
            model="massgen", messages=question
        )
    ),
    "no_answer": status_of(lambda: client.chat.completions.create(model="broken", messages=question)),
    "too_large": status_of(
        lambda: client.chat.completions.create(
            model="massgen", messages=[{"role": "user", "content": "x" * (5 << 20)}]
        )
    ),
}

statuses = []
lock = threading.Lock()


def one():
    status = status_of(lambda: client.chat.completions.create(model="massgen", messages=question))
    with lock:
        statuses.append(status)


threads = [threading.Thread(target=one) for _ in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
seen["concurrent"] = sorted(statuses)

print(json.dumps(seen))
