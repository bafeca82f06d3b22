// Command loadgen is the load generator of `scripts/bench realtime`: it opens many Socket.IO
// (Engine.IO v4 websocket) clients against one server, measures the server's RSS per idle
// connection, the connection rate, and the delivery of broadcast events.
//
//	loadgen run -url ws://127.0.0.1:PORT -http http://127.0.0.1:PORT -pid PID -n N -label NAME -out FILE
//	loadgen run -url ws://A,ws://B -http http://A -pid PID_A,PID_B ...   (clients split over nodes)
//	loadgen report OURS.json REFERENCE.json BARE.json
//	loadgen report-nodes ONE_NODE.json TWO_NODES.json
//	loadgen bare-server                      (PORT from the environment)
//
// `run` is the coordinator: it spawns worker processes (`loadgen worker`, each below the
// per-process file limit), waits until every client has joined the main namespace, reads the
// server's VmRSS, then triggers broadcasts with GET /bench/broadcast?round=R&t=MICROS and
// gathers, from every worker, when each client received its event.
package main

import (
	"bufio"
	"bytes"
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
		fmt.Fprintln(os.Stderr, "usage: loadgen run|worker|report|bare-server ...")
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
	case "report-nodes":
		err = reportNodes(os.Args[2:])
	case "bare-server":
		err = bareServer(os.Args[2:])
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

func work(args []string) error {
	fs := flag.NewFlagSet("worker", flag.ExitOnError)
	url := fs.String("url", "", "ws://host:port")
	n := fs.Int("n", 0, "clients")
	rounds := fs.Int("rounds", 5, "broadcast rounds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dialer := websocket.Dialer{
		ReadBufferSize:   clientBuffer,
		WriteBufferSize:  clientBuffer,
		HandshakeTimeout: connectTimeout,
	}
	conns := make([]*websocket.Conn, *n)
	var ready, failed atomic.Int64
	var wg sync.WaitGroup
	slots := make(chan struct{}, dialConcurrency)
	for i := 0; i < *n; i++ {
		wg.Add(1)
		slots <- struct{}{}
		go func(i int) {
			defer wg.Done()
			conn, err := open(&dialer, *url+enginePath)
			<-slots
			if err != nil {
				failed.Add(1)
				fmt.Fprintln(os.Stderr, "loadgen worker:", err)
				return
			}
			ready.Add(1)
			conns[i] = conn
		}(i)
	}
	wg.Wait()
	expected := int(ready.Load())
	book := newLedger(*rounds, *n, int64(expected))
	for i, conn := range conns {
		if conn != nil {
			go listen(conn, i, book)
		}
	}
	out := json.NewEncoder(os.Stdout)
	if err := out.Encode(workerReady{Ready: expected, Failed: int(failed.Load())}); err != nil {
		return err
	}
	go func() {
		// The coordinator closes our stdin when it is done.
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for round := 1; round <= *rounds; round++ {
		select {
		case <-book.done[round]:
		case <-time.After(roundTimeout):
		}
		if err := out.Encode(book.report(round)); err != nil {
			return err
		}
	}
	select {}
}

// ledger records, per round and per client, when its event arrived and how late, in slots
// of its own: the clients' goroutines share no lock and no channel while a round runs.
type ledger struct {
	latency [][]int64
	arrival [][]int64
	count   []atomic.Int64
	done    []chan struct{}
	want    int64
}

func newLedger(rounds, clients int, want int64) *ledger {
	l := &ledger{
		latency: make([][]int64, rounds+1),
		arrival: make([][]int64, rounds+1),
		count:   make([]atomic.Int64, rounds+1),
		done:    make([]chan struct{}, rounds+1),
		want:    want,
	}
	for r := range l.done {
		l.latency[r] = make([]int64, clients)
		l.arrival[r] = make([]int64, clients)
		l.done[r] = make(chan struct{})
	}
	return l
}

func (l *ledger) record(round, client int, latency, at int64) {
	if round < 1 || round >= len(l.done) || l.arrival[round][client] != 0 {
		return
	}
	l.latency[round][client] = latency
	l.arrival[round][client] = at
	if l.count[round].Add(1) == l.want {
		close(l.done[round])
	}
}

func (l *ledger) report(round int) roundReport {
	r := roundReport{Round: round, Latencies: make([]int64, 0, l.want)}
	for i, at := range l.arrival[round] {
		if at == 0 {
			continue
		}
		r.Latencies = append(r.Latencies, l.latency[round][i])
		r.LastMicro = max(r.LastMicro, at)
	}
	return r
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

// listen answers pings and records every tick: `42["tick",{"round":R,"t":MICROS}]`. It
// reads into a buffer of its own and picks the two numbers out by hand: the load generator
// shares the machine with the server, so it does as little per frame as it can.
func listen(conn *websocket.Conn, client int, book *ledger) {
	buf := make([]byte, 256)
	for {
		_, r, err := conn.NextReader()
		if err != nil {
			return
		}
		n, err := io.ReadFull(r, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return
		}
		now := time.Now().UnixMicro()
		msg := buf[:n]
		if len(msg) == 1 && msg[0] == '2' {
			if conn.WriteMessage(websocket.TextMessage, []byte("3")) != nil {
				return
			}
			continue
		}
		if !bytes.HasPrefix(msg, []byte(tickPrefix)) {
			continue
		}
		round, okRound := numberAfter(msg, `"round":`)
		sent, okSent := numberAfter(msg, `"t":`)
		if okRound && okSent {
			book.record(int(round), client, now-sent, now)
		}
	}
}

// numberAfter reads the non-negative integer that follows key in msg.
func numberAfter(msg []byte, key string) (int64, bool) {
	at := bytes.Index(msg, []byte(key))
	if at < 0 {
		return 0, false
	}
	var v int64
	digits := 0
	for _, c := range msg[at+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		v = v*10 + int64(c-'0')
		digits++
	}
	return v, digits > 0
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
	// The same for the load generator's worker processes (receiving the frames), which share
	// the machine's cores with the server.
	LoadCPUMillisPerRound float64 `json:"load_cpu_ms_per_round"`
	// With several nodes: latencies of the clients of the node the broadcast was asked of
	// (local) and of the other nodes (remote: one Redis hop more).
	Nodes                  int     `json:"nodes"`
	LocalLatencyP50Millis  float64 `json:"local_latency_p50_ms"`
	RemoteLatencyP50Millis float64 `json:"remote_latency_p50_ms"`
	RemoteLatencyP99Millis float64 `json:"remote_latency_p99_ms"`
}

type worker struct {
	node  int
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *json.Decoder
}

func coordinate(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	url := fs.String("url", "", "ws://host:port of the server")
	httpURL := fs.String("http", "", "http://host:port of the server")
	pidList := fs.String("pid", "", "server process ids, comma-separated (for VmRSS and CPU)")
	n := fs.Int("n", 10000, "clients")
	rounds := fs.Int("rounds", 5, "broadcast rounds")
	label := fs.String("label", "server", "name in the report")
	outPath := fs.String("out", "", "write the result as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	urls := strings.Split(*url, ",")
	var pids []int
	for _, p := range strings.Split(*pidList, ",") {
		id, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return fmt.Errorf("-pid: %w", err)
		}
		pids = append(pids, id)
	}
	baseline, err := sumOver(pids, rssKiB)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}

	start := time.Now()
	var workers []*worker
	// Clients are split evenly over the nodes; each worker talks to one node.
	type share struct {
		node, count int
	}
	var shares []share
	for i := range urls {
		per := *n / len(urls)
		if i < *n%len(urls) {
			per++
		}
		for left := per; left > 0; left -= perWorker {
			shares = append(shares, share{i, min(left, perWorker)})
		}
	}
	for _, sh := range shares {
		count := sh.count
		cmd := exec.Command(self, "worker", "-url", urls[sh.node], "-n", strconv.Itoa(count), "-rounds", strconv.Itoa(*rounds))
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
		workers = append(workers, &worker{node: sh.node, cmd: cmd, stdin: stdin, lines: json.NewDecoder(bufio.NewReader(stdout))})
	}
	defer func() {
		for _, w := range workers {
			w.stdin.Close()
			_ = w.cmd.Wait()
		}
	}()
	res := Result{Label: *label, BaselineRSSKiB: baseline, Nodes: len(urls)}
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
	if res.IdleRSSKiB, err = sumOver(pids, rssKiB); err != nil {
		return err
	}
	res.RSSPerConnBytes = float64(res.IdleRSSKiB-res.BaselineRSSKiB) * 1024 / float64(res.Clients)

	var latencies, local, remote []int64
	var rates []float64
	cpuBefore, err := sumOver(pids, cpuMillis)
	if err != nil {
		return err
	}
	loadBefore, err := workersCPUMillis(workers)
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
			if w.node == 0 {
				local = append(local, r.Latencies...)
			} else {
				remote = append(remote, r.Latencies...)
			}
			last = max(last, r.LastMicro)
		}
		res.Delivered += got
		rate := float64(got) / (float64(last-sent) / 1e6)
		rates = append(rates, rate)
		fmt.Fprintf(os.Stderr, "%s: round %d: %d/%d frames in %.1f ms\n", *label, round, got, res.Clients, float64(last-sent)/1e3)
	}
	res.Rounds = *rounds
	cpuAfter, err := sumOver(pids, cpuMillis)
	if err != nil {
		return err
	}
	loadAfter, err := workersCPUMillis(workers)
	if err != nil {
		return err
	}
	if *rounds > 0 {
		// The gaps between rounds are idle: (almost) all of this is the broadcasts.
		res.ServerCPUMillisPerRound = float64(cpuAfter-cpuBefore) / float64(*rounds)
		res.LoadCPUMillisPerRound = float64(loadAfter-loadBefore) / float64(*rounds)
	}
	sort.Float64s(rates)
	if len(rates) > 0 {
		res.FramesPerSecond = rates[len(rates)/2]
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	res.LatencyP50Millis = percentile(latencies, 50)
	res.LatencyP99Millis = percentile(latencies, 99)
	sort.Slice(local, func(i, j int) bool { return local[i] < local[j] })
	sort.Slice(remote, func(i, j int) bool { return remote[i] < remote[j] })
	res.LocalLatencyP50Millis = percentile(local, 50)
	res.RemoteLatencyP50Millis = percentile(remote, 50)
	res.RemoteLatencyP99Millis = percentile(remote, 99)

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

// sumOver adds up a per-process figure over the server processes.
func sumOver(pids []int, read func(int) (int64, error)) (int64, error) {
	var total int64
	for _, pid := range pids {
		v, err := read(pid)
		if err != nil {
			return 0, err
		}
		total += v
	}
	return total, nil
}

// rssKiB reads VmRSS of a process, in KiB.
// workersCPUMillis is the CPU time the worker processes have used so far.
func workersCPUMillis(workers []*worker) (int64, error) {
	var total int64
	for _, w := range workers {
		ms, err := cpuMillis(w.cmd.Process.Pid)
		if err != nil {
			return 0, err
		}
		total += ms
	}
	return total, nil
}

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
	if len(args) != 3 {
		return errors.New("usage: loadgen report OURS.json REFERENCE.json BARE.json")
	}
	var results [3]Result
	for i, path := range args {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &results[i]); err != nil {
			return err
		}
	}
	ours, ref, bare := results[0], results[1], results[2]
	fmt.Printf("%-38s %10s %10s %9s   %10s %9s\n", "", ours.Label, ref.Label, "ours/ref", bare.Label, "bare/ref")
	row := func(name string, a, b, c float64, format string) {
		ratio := func(x, y float64) string {
			if y == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f", x/y)
		}
		fmt.Printf("%-38s %10s %10s %9s   %10s %9s\n", name,
			fmt.Sprintf(format, a), fmt.Sprintf(format, b), ratio(a, b), fmt.Sprintf(format, c), ratio(c, b))
	}
	row("clients connected", float64(ours.Clients), float64(ref.Clients), float64(bare.Clients), "%.0f")
	row("baseline RSS (KiB)", float64(ours.BaselineRSSKiB), float64(ref.BaselineRSSKiB), float64(bare.BaselineRSSKiB), "%.0f")
	row("RSS with idle clients (KiB)", float64(ours.IdleRSSKiB), float64(ref.IdleRSSKiB), float64(bare.IdleRSSKiB), "%.0f")
	row("RSS per idle connection (bytes)", ours.RSSPerConnBytes, ref.RSSPerConnBytes, bare.RSSPerConnBytes, "%.0f")
	row("connections per second", ours.ConnsPerSecond, ref.ConnsPerSecond, bare.ConnsPerSecond, "%.0f")
	row("broadcast frames per second", ours.FramesPerSecond, ref.FramesPerSecond, bare.FramesPerSecond, "%.0f")
	row("delivery latency p50 (ms)", ours.LatencyP50Millis, ref.LatencyP50Millis, bare.LatencyP50Millis, "%.1f")
	row("delivery latency p99 (ms)", ours.LatencyP99Millis, ref.LatencyP99Millis, bare.LatencyP99Millis, "%.1f")
	row("server CPU per broadcast (ms)", ours.ServerCPUMillisPerRound, ref.ServerCPUMillisPerRound, bare.ServerCPUMillisPerRound, "%.0f")
	row("load generator CPU per broadcast (ms)", ours.LoadCPUMillisPerRound, ref.LoadCPUMillisPerRound, bare.LoadCPUMillisPerRound, "%.0f")
	return nil
}

// reportNodes prints one node against several nodes (same clients, broadcast asked of the
// first node) and the share of the Redis hop in the remote clients' latency.
func reportNodes(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: loadgen report-nodes ONE_NODE.json NODES.json")
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
	one, many := results[0], results[1]
	fmt.Printf("%-42s %12s %12s %9s\n", "", one.Label, many.Label, "ratio")
	row := func(name string, a, b float64, format string) {
		ratio := "-"
		if a != 0 {
			ratio = fmt.Sprintf("%.2f", b/a)
		}
		fmt.Printf("%-42s %12s %12s %9s\n", name, fmt.Sprintf(format, a), fmt.Sprintf(format, b), ratio)
	}
	row("clients connected", float64(one.Clients), float64(many.Clients), "%.0f")
	row("broadcast frames per second", one.FramesPerSecond, many.FramesPerSecond, "%.0f")
	row("delivery latency p50 (ms)", one.LatencyP50Millis, many.LatencyP50Millis, "%.1f")
	row("delivery latency p99 (ms)", one.LatencyP99Millis, many.LatencyP99Millis, "%.1f")
	row("p50, clients of the asked node (ms)", one.LatencyP50Millis, many.LocalLatencyP50Millis, "%.1f")
	row("p50, clients of the other node (ms)", one.LatencyP50Millis, many.RemoteLatencyP50Millis, "%.1f")
	row("p99, clients of the other node (ms)", one.LatencyP99Millis, many.RemoteLatencyP99Millis, "%.1f")
	row("server CPU per broadcast, all nodes (ms)", one.ServerCPUMillisPerRound, many.ServerCPUMillisPerRound, "%.0f")
	if many.RemoteLatencyP50Millis > 0 {
		hop := many.RemoteLatencyP50Millis - many.LocalLatencyP50Millis
		fmt.Printf("\nRedis hop (p50 of the other node's clients minus the asked node's): %.1f ms, %.0f%% of the other node's p50\n",
			hop, 100*hop/many.RemoteLatencyP50Millis)
	}
	return nil
}
