// Command loadgen is the load generator of `scripts/bench realtime`: it opens many Socket.IO
// (Engine.IO v4 websocket) clients against one server, measures the server's RSS per idle
// connection, the connection rate, and the delivery of broadcast events.
//
//	loadgen run -url ws://127.0.0.1:PORT -http http://127.0.0.1:PORT -pid PID -n N -label NAME -out FILE
//	loadgen report OURS.json REFERENCE.json
//
// `run` is the coordinator: it spawns worker processes (`loadgen worker`, each below the
// per-process file limit), waits until every client has joined the main namespace, reads the
// server's VmRSS, then triggers broadcasts with GET /bench/broadcast?round=R&t=MICROS and
// gathers, from every worker, when each client received its event.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

const (
	// Clients per worker process: each holds one socket (one file) per client, and a process
	// may not hold more than about 20,000 files.
	perWorker = 5000
	// Handshakes in flight at once per worker.
	dialConcurrency = 64
	// Time given to the server after the last connection before reading its RSS.
	settle = 3 * time.Second
	// Gap between two broadcast rounds.
	roundGap = 1 * time.Second
	// Longest wait for one round's events.
	roundTimeout = 30 * time.Second
	// Longest wait for all clients to connect.
	connectTimeout = 5 * time.Minute
	// Socket buffers of one client connection, in bytes (the messages are tiny).
	clientBuffer = 1024
	enginePath   = "/socket.io/?EIO=4&transport=websocket"
	tickPrefix   = `42["tick",`
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: loadgen run|worker|report ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = coordinate(os.Args[2:])
	case "worker":
		err = work(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// ---- worker --------------------------------------------------------------------------------

// workerReady is a worker's first line: how many of its clients joined the namespace.
type workerReady struct {
	Ready  int `json:"ready"`
	Failed int `json:"failed"`
}

// roundReport is a worker's line after a round: per-client latencies in microseconds and the
// time of its last delivery.
type roundReport struct {
	Round     int     `json:"round"`
	Latencies []int64 `json:"lat"`
	LastMicro int64   `json:"last"`
}

type delivery struct {
	round   int
	latency int64
	at      int64
}

func work(args []string) error {
	fs := flag.NewFlagSet("worker", flag.ExitOnError)
	url := fs.String("url", "", "ws://host:port")
	n := fs.Int("n", 0, "clients")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dialer := websocket.Dialer{
		ReadBufferSize:   clientBuffer,
		WriteBufferSize:  clientBuffer,
		HandshakeTimeout: connectTimeout,
	}
	deliveries := make(chan delivery, *n)
	var ready, failed atomic.Int64
	var wg sync.WaitGroup
	slots := make(chan struct{}, dialConcurrency)
	for i := 0; i < *n; i++ {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			conn, err := open(&dialer, *url+enginePath)
			<-slots
			if err != nil {
				failed.Add(1)
				fmt.Fprintln(os.Stderr, "loadgen worker:", err)
				return
			}
			ready.Add(1)
			go listen(conn, deliveries)
		}()
	}
	wg.Wait()
	out := json.NewEncoder(os.Stdout)
	if err := out.Encode(workerReady{Ready: int(ready.Load()), Failed: int(failed.Load())}); err != nil {
		return err
	}
	expected := int(ready.Load())
	go func() {
		// The coordinator closes our stdin when it is done.
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	var current *roundReport
	var deadline <-chan time.Time
	for {
		select {
		case d := <-deliveries:
			if current == nil || current.Round != d.round {
				if current != nil {
					if err := out.Encode(current); err != nil {
						return err
					}
				}
				current = &roundReport{Round: d.round, Latencies: make([]int64, 0, expected)}
				deadline = time.After(roundTimeout)
			}
			current.Latencies = append(current.Latencies, d.latency)
			if d.at > current.LastMicro {
				current.LastMicro = d.at
			}
			if len(current.Latencies) == expected {
				if err := out.Encode(current); err != nil {
					return err
				}
				current, deadline = nil, nil
			}
		case <-deadline:
			if err := out.Encode(current); err != nil {
				return err
			}
			current, deadline = nil, nil
		}
	}
}

// open performs the Engine.IO websocket handshake and joins the main namespace.
func open(dialer *websocket.Dialer, url string) (*websocket.Conn, error) {
	conn, _, err := dialer.Dial(url, nil)
	if err != nil {
		return nil, err
	}
	_, open, err := conn.ReadMessage()
	if err != nil || !strings.HasPrefix(string(open), "0{") {
		conn.Close()
		return nil, fmt.Errorf("no open packet: %q %v", open, err)
	}
	if err := conn.WriteMessage(websocket.TextMessage, []byte("40")); err != nil {
		conn.Close()
		return nil, err
	}
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			conn.Close()
			return nil, err
		}
		switch {
		case string(msg) == "2":
			if err := conn.WriteMessage(websocket.TextMessage, []byte("3")); err != nil {
				conn.Close()
				return nil, err
			}
		case strings.HasPrefix(string(msg), "40{"):
			return conn, nil
		case strings.HasPrefix(string(msg), "44"):
			conn.Close()
			return nil, fmt.Errorf("connect refused: %s", msg)
		}
	}
}

// listen answers pings and reports every tick: `42["tick",{"round":R,"t":MICROS}]`.
func listen(conn *websocket.Conn, deliveries chan<- delivery) {
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		now := time.Now().UnixMicro()
		text := string(msg)
		if text == "2" {
			if conn.WriteMessage(websocket.TextMessage, []byte("3")) != nil {
				return
			}
			continue
		}
		if !strings.HasPrefix(text, tickPrefix) {
			continue
		}
		var args []struct {
			Round int   `json:"round"`
			T     int64 `json:"t"`
		}
		if json.Unmarshal([]byte("["+strings.TrimSuffix(text[len(tickPrefix):], "]")+"]"), &args) != nil || len(args) != 1 {
			continue
		}
		deliveries <- delivery{round: args[0].Round, latency: now - args[0].T, at: now}
	}
}

// ---- coordinator -----------------------------------------------------------------------

// Result is what one server scored; `report` compares two of them.
type Result struct {
	Label            string  `json:"label"`
	Clients          int     `json:"clients"`
	Failed           int     `json:"failed"`
	BaselineRSSKiB   int64   `json:"baseline_rss_kib"`
	IdleRSSKiB       int64   `json:"idle_rss_kib"`
	RSSPerConnBytes  float64 `json:"rss_per_conn_bytes"`
	ConnectSeconds   float64 `json:"connect_seconds"`
	ConnsPerSecond   float64 `json:"conns_per_second"`
	Rounds           int     `json:"rounds"`
	Delivered        int     `json:"delivered"`
	FramesPerSecond  float64 `json:"frames_per_second"`
	LatencyP50Millis float64 `json:"latency_p50_ms"`
	LatencyP99Millis float64 `json:"latency_p99_ms"`
	// Server CPU time (user + system) spent per broadcast round, all rounds averaged.
	ServerCPUMillisPerRound float64 `json:"server_cpu_ms_per_round"`
}

type worker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *json.Decoder
}

func coordinate(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	url := fs.String("url", "", "ws://host:port of the server")
	httpURL := fs.String("http", "", "http://host:port of the server")
	pid := fs.Int("pid", 0, "server process id (for VmRSS)")
	n := fs.Int("n", 10000, "clients")
	rounds := fs.Int("rounds", 5, "broadcast rounds")
	label := fs.String("label", "server", "name in the report")
	outPath := fs.String("out", "", "write the result as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	baseline, err := rssKiB(*pid)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}

	start := time.Now()
	var workers []*worker
	for left := *n; left > 0; left -= perWorker {
		count := min(left, perWorker)
		cmd := exec.Command(self, "worker", "-url", *url, "-n", strconv.Itoa(count))
		cmd.Stderr = os.Stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		workers = append(workers, &worker{cmd: cmd, stdin: stdin, lines: json.NewDecoder(bufio.NewReader(stdout))})
	}
	defer func() {
		for _, w := range workers {
			w.stdin.Close()
			_ = w.cmd.Wait()
		}
	}()
	res := Result{Label: *label, BaselineRSSKiB: baseline}
	for _, w := range workers {
		var ready workerReady
		if err := w.lines.Decode(&ready); err != nil {
			return fmt.Errorf("worker: %w", err)
		}
		res.Clients += ready.Ready
		res.Failed += ready.Failed
	}
	res.ConnectSeconds = time.Since(start).Seconds()
	if res.Clients == 0 {
		return errors.New("no client connected")
	}
	res.ConnsPerSecond = float64(res.Clients) / res.ConnectSeconds
	fmt.Fprintf(os.Stderr, "%s: %d clients connected in %.2f s (%d failed)\n", *label, res.Clients, res.ConnectSeconds, res.Failed)

	time.Sleep(settle)
	if res.IdleRSSKiB, err = rssKiB(*pid); err != nil {
		return err
	}
	res.RSSPerConnBytes = float64(res.IdleRSSKiB-res.BaselineRSSKiB) * 1024 / float64(res.Clients)

	var latencies []int64
	var rates []float64
	cpuBefore, err := cpuMillis(*pid)
	if err != nil {
		return err
	}
	for round := 1; round <= *rounds; round++ {
		time.Sleep(roundGap)
		sent := time.Now().UnixMicro()
		resp, err := http.Get(fmt.Sprintf("%s/bench/broadcast?round=%d&t=%d", *httpURL, round, sent))
		if err != nil {
			return err
		}
		resp.Body.Close()
		got, last := 0, sent
		for _, w := range workers {
			var r roundReport
			if err := w.lines.Decode(&r); err != nil {
				return fmt.Errorf("worker: %w", err)
			}
			if r.Round != round {
				return fmt.Errorf("worker reported round %d during round %d", r.Round, round)
			}
			got += len(r.Latencies)
			latencies = append(latencies, r.Latencies...)
			last = max(last, r.LastMicro)
		}
		res.Delivered += got
		rate := float64(got) / (float64(last-sent) / 1e6)
		rates = append(rates, rate)
		fmt.Fprintf(os.Stderr, "%s: round %d: %d/%d frames in %.1f ms\n", *label, round, got, res.Clients, float64(last-sent)/1e3)
	}
	res.Rounds = *rounds
	cpuAfter, err := cpuMillis(*pid)
	if err != nil {
		return err
	}
	if *rounds > 0 {
		// The gaps between rounds are idle: (almost) all of this is the broadcasts.
		res.ServerCPUMillisPerRound = float64(cpuAfter-cpuBefore) / float64(*rounds)
	}
	sort.Float64s(rates)
	if len(rates) > 0 {
		res.FramesPerSecond = rates[len(rates)/2]
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	res.LatencyP50Millis = percentile(latencies, 50)
	res.LatencyP99Millis = percentile(latencies, 99)

	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if *outPath != "" {
		return os.WriteFile(*outPath, data, 0o644)
	}
	fmt.Println(string(data))
	return nil
}

func percentile(sorted []int64, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	i = min(max(i-1, 0), len(sorted)-1)
	return float64(sorted[i]) / 1e3
}

// Clock ticks per second of /proc/PID/stat times (USER_HZ, 100 on Linux).
const userHz = 100

// cpuMillis reads the user + system CPU time of a process, in milliseconds.
func cpuMillis(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	const utimeField, stimeField = 11, 12 // fields 14 and 15 of stat(5), counted from `state`
	utime, err := strconv.ParseInt(fields[utimeField], 10, 64)
	if err != nil {
		return 0, err
	}
	stime, err := strconv.ParseInt(fields[stimeField], 10, 64)
	if err != nil {
		return 0, err
	}
	return (utime + stime) * 1000 / userHz, nil
}

// rssKiB reads VmRSS of a process, in KiB.
func rssKiB(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no VmRSS")
}

// ---- report ------------------------------------------------------------------------------

func report(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: loadgen report OURS.json REFERENCE.json")
	}
	var results [2]Result
	for i, path := range args {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &results[i]); err != nil {
			return err
		}
	}
	ours, ref := results[0], results[1]
	fmt.Printf("%-34s %14s %14s %12s\n", "", ours.Label, ref.Label, "ours/ref")
	row := func(name string, a, b float64, format string) {
		ratio := "-"
		if b != 0 {
			ratio = fmt.Sprintf("%.2f", a/b)
		}
		fmt.Printf("%-34s %14s %14s %12s\n", name, fmt.Sprintf(format, a), fmt.Sprintf(format, b), ratio)
	}
	row("clients connected", float64(ours.Clients), float64(ref.Clients), "%.0f")
	row("baseline RSS (KiB)", float64(ours.BaselineRSSKiB), float64(ref.BaselineRSSKiB), "%.0f")
	row("RSS with idle clients (KiB)", float64(ours.IdleRSSKiB), float64(ref.IdleRSSKiB), "%.0f")
	row("RSS per idle connection (bytes)", ours.RSSPerConnBytes, ref.RSSPerConnBytes, "%.0f")
	row("connections per second", ours.ConnsPerSecond, ref.ConnsPerSecond, "%.0f")
	row("broadcast frames per second", ours.FramesPerSecond, ref.FramesPerSecond, "%.0f")
	row("delivery latency p50 (ms)", ours.LatencyP50Millis, ref.LatencyP50Millis, "%.1f")
	row("delivery latency p99 (ms)", ours.LatencyP99Millis, ref.LatencyP99Millis, "%.1f")
	row("server CPU per broadcast (ms)", ours.ServerCPUMillisPerRound, ref.ServerCPUMillisPerRound, "%.0f")
	return nil
}
