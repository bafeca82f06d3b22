package main

// The bare writer: the floor of the broadcast measurement on this machine. It speaks just
// enough Engine.IO/Socket.IO for the load generator's clients (the open packet, the `40`
// answer), keeps nothing per client but its connection, and broadcasts by writing one
// pre-encoded websocket frame to each connection's socket in a loop: one `write` system call
// per client, split across the cores, and nothing else. No real server can deliver a broadcast with less work, so its
// frames per second are the ceiling of any server's figure here.

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
)

func bareServer(args []string) error {
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	var mu sync.Mutex
	var conns []net.Conn
	upgrader := websocket.Upgrader{ReadBufferSize: clientBuffer, WriteBufferSize: clientBuffer}
	http.HandleFunc("/socket.io/", func(w http.ResponseWriter, r *http.Request) {
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		open := `0{"sid":"bare","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}`
		if conn.WriteMessage(websocket.TextMessage, []byte(open)) != nil {
			conn.Close()
			return
		}
		_, msg, err := conn.ReadMessage()
		if err != nil || !strings.HasPrefix(string(msg), "40") {
			conn.Close()
			return
		}
		if conn.WriteMessage(websocket.TextMessage, []byte(`40{"sid":"bare"}`)) != nil {
			conn.Close()
			return
		}
		mu.Lock()
		conns = append(conns, conn.UnderlyingConn())
		mu.Unlock()
		// Read until the client goes, so that its socket is closed then.
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				conn.Close()
				return
			}
		}
	})
	http.HandleFunc("/bench/broadcast", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		payload := fmt.Sprintf(`42["tick",{"round":%s,"t":%s}]`, q.Get("round"), q.Get("t"))
		frame := append([]byte{0x81, byte(len(payload))}, payload...)
		mu.Lock()
		targets := conns
		mu.Unlock()
		// One writer per core, each over its share of the sockets.
		writers := runtime.GOMAXPROCS(0)
		share := (len(targets) + writers - 1) / writers
		var wg sync.WaitGroup
		for start := 0; start < len(targets); start += share {
			part := targets[start:min(start+share, len(targets))]
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, c := range part {
					_, _ = c.Write(frame)
				}
			}()
		}
		wg.Wait()
		fmt.Fprint(w, "ok")
	})
	fmt.Printf("bare writer listening on 127.0.0.1:%s\n", port)
	return http.ListenAndServe("127.0.0.1:"+port, nil)
}
