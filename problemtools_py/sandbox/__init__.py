"""The sandbox: a server (run as root under ``python3 -I``) that runs one program at a time in
isolation, and the client the judge talks to it with (:mod:`.client`).

Everything in this package uses the standard library only: the server and the jails'
inits import it on the interpreter programs run with, and the lean init keeps its
footprint small. Nothing here knows about problems, verdicts or languages."""
