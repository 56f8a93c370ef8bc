;;; emacs.el --- Drives the Emacs plugin in emacs --batch  -*- lexical-binding: t -*-

;; See run.sh for the environment.  Times come from `float-time'.  The
;; plugin has no render hook, so an :after advice on its own `carrel--render'
;; (the plugin is not changed) looks for the awaited row in the binder's text
;; each time it is drawn.  In batch Emacs, timers also run while the plugin
;; waits inside a synchronous request, so the stall figure sees only the
;; stretches where Emacs neither waits for the server nor lets timers run.

(require 'json)
(add-to-list 'load-path (expand-file-name "../emacs" (file-name-directory load-file-name)))
(require 'carrel)

(defun bench-env (name) (getenv name))
(defun bench-now () (* 1000.0 (float-time)))
(defun bench-rss-kb () (cdr (assq 'rss (process-attributes (emacs-pid)))))

(defvar bench-library (bench-env "BENCH_LIBRARY"))
(defvar bench-result nil)
(defun bench-put (key value) (push (cons key value) bench-result))

;; The longest gap between ticks of a 10 ms timer, over a window.
(defvar bench-last (bench-now))
(defvar bench-worst 0)
(run-at-time 0.01 0.01 (lambda ()
                         (let ((now (bench-now)))
                           (setq bench-worst (max bench-worst (- now bench-last 10))
                                 bench-last now))))
(defun bench-stall-window () (setq bench-last (bench-now) bench-worst 0))

;; The native baseline: the library's top two levels, as dired and treemacs list them.
(let ((t0 (bench-now)))
  (dolist (name (directory-files bench-library t directory-files-no-dot-files-regexp))
    (when (file-directory-p name) (directory-files name t directory-files-no-dot-files-regexp)))
  (bench-put 'baseline_ms (- (bench-now) t0)))

(defvar bench-awaited nil "Text of the row waited for.")
(defvar bench-seen nil "When a render first showed `bench-awaited'.")
(advice-add 'carrel--render :after
            (lambda (&rest _)
              (when (and bench-awaited (not bench-seen))
                (save-excursion
                  (goto-char (point-min))
                  (when (search-forward bench-awaited nil t) (setq bench-seen (bench-now)))))))

(defun bench-wait (text seconds)
  "Wait up to SECONDS for a render that shows TEXT; return its time or nil."
  (let ((deadline (+ (float-time) seconds)))
    (setq bench-awaited text)
    (while (and (not bench-seen) (< (float-time) deadline))
      (accept-process-output nil 0.001))
    (prog1 bench-seen (setq bench-awaited nil bench-seen nil))))

(defun bench-sleep (seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline) (accept-process-output nil 0.005))))

(defun bench-count ()
  (ignore-errors
    (with-temp-buffer
      (insert-file-contents (bench-env "BENCH_COUNT"))
      (string-to-number (buffer-string)))))

(setq carrel-server-command (append (json-read-from-string (bench-env "BENCH_SERVER")) nil))
(let ((rss-before (bench-rss-kb))
      start shown)
  (bench-stall-window)
  (setq bench-awaited "Poems")
  (setq start (bench-now))
  (carrel bench-library)
  (setq shown (or bench-seen (bench-wait "Poems" 60)))
  (bench-put 'open_ms (and shown (- shown start)))
  (setq bench-seen nil bench-awaited nil)
  (bench-sleep 1.0)
  (bench-put 'stall_open_ms bench-worst)
  (when (equal (bench-env "BENCH_MODE") "changes")
    (let ((times nil) (bytes nil))
      (dotimes (j (string-to-number (bench-env "BENCH_CHANGES")))
        (let* ((name (format "Outside %d.md" (1+ j)))
               (staging (expand-file-name name (bench-env "BENCH_STAGING")))
               (before (bench-count))
               at t0)
          ;; Written elsewhere and renamed in: one step, as another program saves.
          (write-region "words\n" nil staging nil 'silent)
          (setq bench-awaited name t0 (bench-now))
          (rename-file staging (expand-file-name name bench-library))
          (setq at (bench-wait name 5))
          (bench-sleep 0.1)
          (push (if at (- at t0) -1) times)
          (push (if before (- (bench-count) before) -1) bytes)
          (when (= j 99) (bench-put 'rss_after_100_kb (bench-rss-kb)))))
      (bench-put 'change_ms (vconcat (nreverse times)))
      (bench-put 'change_bytes (vconcat (nreverse bytes)))
      (bench-put 'rss_before_kb rss-before)
      (let ((burst (string-to-number (bench-env "BENCH_BURST"))))
        (bench-stall-window)
        (start-process "burst" nil "python3" (expand-file-name "burst.py" (bench-env "BENCH_DIR"))
                       bench-library (number-to-string burst))
        (bench-wait (format "Burst %d.md" (1- burst)) 120)
        (bench-sleep 0.5)
        (bench-put 'stall_burst_ms bench-worst)))))

(with-temp-file (bench-env "BENCH_OUT") (insert (json-encode bench-result)))
(kill-emacs 0)
