;;; emacs.el --- Drives a tree in emacs -nw or --batch  -*- lexical-binding: t -*-

;; See run.sh for the environment.  BENCH_TREE names the tree: carrel (the
;; plugin, the default), dired (built in, kept up to date by
;; `auto-revert-mode' on file notifications, as writers turn it on), or
;; treemacs from BENCH_PEERS (its sources and their dependencies, loaded as
;; they are, not byte-compiled, with its defaults).  Times come from
;; `float-time'.  Emacs runs in a tmux terminal (emacs -nw) or in batch.  No
;; tree announces a render, so a row counts as shown when a poll of the
;; buffers that changed since the last poll finds it and the screen has
;; been redrawn (`redisplay' draws nothing in batch); the wait polls every
;; millisecond, between which timers and process output run.  Timers also
;; run while a plugin waits inside a synchronous request, so the stall
;; figure sees only the stretches where Emacs neither waits for the server
;; nor lets timers run.  With BENCH_PRELOAD=1, an open
;; run first calls `carrel-preload', as a writer's init file does, and
;; times it until the plugin holds the first view (preload_ms) with the
;; longest stall until a second after (preload_stall_ms); the open is then
;; timed as without it.

(require 'json)
(require 'seq)

(defun bench-env (name) (getenv name))
(defun bench-now () (* 1000.0 (float-time)))
(defun bench-rss-kb () (cdr (assq 'rss (process-attributes (emacs-pid)))))

(defvar bench-library (bench-env "BENCH_LIBRARY"))
(defvar bench-tree (or (bench-env "BENCH_TREE") "carrel"))
(defvar bench-peers (or (bench-env "BENCH_PEERS") ""))
(defvar bench-result nil)
(defun bench-put (key value) (push (cons key value) bench-result))
(bench-put 'tree bench-tree)

;; The longest gap between ticks of a 10 ms timer, over a window.
(defvar bench-last (bench-now))
(defvar bench-worst 0)
(run-at-time 0.01 0.01 (lambda ()
                         (let ((now (bench-now)))
                           (setq bench-worst (max bench-worst (- now bench-last 10))
                                 bench-last now))))
(defun bench-stall-window () (setq bench-last (bench-now) bench-worst 0))

;; The native baseline: what a tree does to open, with nothing of its own:
;; list the library's top two levels and draw them into a buffer.
(let ((t0 (bench-now)))
  (with-temp-buffer
    (dolist (name (directory-files bench-library nil directory-files-no-dot-files-regexp))
      (insert name "\n")
      (let ((path (expand-file-name name bench-library)))
        (when (file-directory-p path)
          (dolist (child (directory-files path nil directory-files-no-dot-files-regexp))
            (insert "  " child "\n")))))
    (bench-put 'baseline_ms (- (bench-now) t0))))

;; File notifications reach Emacs as special input events, which only the
;; reading of input handles: `accept-process-output' leaves them queued, so
;; auto-revert and treemacs would never see an outside change.  `sit-for'
;; reads input in a terminal and, in batch (which reads no input), sleeps
;; running timers and process output; it is told not to redraw, so the
;; drawn moment is the waits' own.
(defun bench-pause (seconds) (sit-for seconds t))

(defvar bench-ticks (make-hash-table :test #'eq) "Buffer → its change tick when last searched.")

(defun bench-tree-buffers ()
  "Return the buffers a tree draws in."
  (seq-filter (lambda (buffer)
                (with-current-buffer buffer (derived-mode-p 'carrel-tree-mode 'dired-mode 'treemacs-mode)))
              (buffer-list)))

(defun bench-shown-p (text)
  "Return non-nil if a tree buffer changed since the last look shows TEXT."
  (seq-some (lambda (buffer)
              (let ((tick (buffer-chars-modified-tick buffer)))
                (unless (eql tick (gethash buffer bench-ticks))
                  (puthash buffer tick bench-ticks)
                  (with-current-buffer buffer
                    (save-excursion
                      (goto-char (point-min))
                      (search-forward text nil t))))))
            (bench-tree-buffers)))

(defun bench-wait (text seconds)
  "Wait up to SECONDS for a buffer to show TEXT; return the time or nil."
  (clrhash bench-ticks)
  (let ((deadline (+ (float-time) seconds))
        (seen nil))
    (while (and (not (setq seen (and (bench-shown-p text) (progn (redisplay t) (bench-now)))))
                (< (float-time) deadline))
      (bench-pause 0.001))
    seen))

(defun bench-sleep (seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline) (bench-pause 0.005))))

(defun bench-count ()
  (ignore-errors
    (with-temp-buffer
      (insert-file-contents (bench-env "BENCH_COUNT"))
      (string-to-number (buffer-string)))))

(defun bench-open ()
  "Open the tree on the library."
  (pcase bench-tree
    ("carrel"
     ;; Byte-compiled, as package.el installs it, when run.sh compiled a copy.
     (add-to-list 'load-path (or (bench-env "BENCH_EMACS_LISP")
                                 (expand-file-name "../emacs" (file-name-directory load-file-name))))
     (require 'carrel)
     (setq carrel-server-command (append (json-read-from-string (bench-env "BENCH_SERVER")) nil))
     (lambda () (carrel bench-library)))
    ("dired"
     (setq auto-revert-use-notify t auto-revert-verbose nil)
     (add-hook 'dired-mode-hook #'auto-revert-mode)
     (lambda () (dired bench-library)))
    ("treemacs"
     (dolist (dir '("dash.el" "s.el" "ht.el" "pfuture" "ace-window" "avy" "hydra" "cfrs" "posframe"
                    "treemacs/src/elisp"))
       (add-to-list 'load-path (expand-file-name dir bench-peers)))
     (require 'treemacs)
     (lambda ()
       (let ((default-directory (file-name-as-directory bench-library)))
         (treemacs-add-and-display-current-project-exclusively))))))

(defun bench-goto-row (text)
  "Select a window on the first tree buffer that shows TEXT, point on that row."
  (let ((spot (seq-some (lambda (buffer)
                          (with-current-buffer buffer
                            (save-excursion
                              (goto-char (point-min))
                              (and (search-forward text nil t)
                                   (cons buffer (- (point) (length text)))))))
                        (bench-tree-buffers))))
    (when spot
      (pop-to-buffer (car spot))
      (set-buffer (car spot))
      (goto-char (cdr spot))
      t)))

(defun bench-preload-held-p ()
  "Return non-nil once the preloaded binder holds its first view."
  (let* ((conn (carrel--connection-for bench-library))
         (tree (and conn (carrel--tree-buffer conn))))
    (and tree (eq (buffer-local-value 'carrel--first-view tree) 'held))))

(defun bench-preload ()
  "Preload the binder; record how long until it holds the first view, and stalls."
  (bench-stall-window)
  (let ((t0 (bench-now))
        (deadline (+ (float-time) 30))
        (held nil))
    (let ((carrel-library-directory bench-library))
      (carrel-preload))
    (while (and (not (setq held (and (bench-preload-held-p) (bench-now))))
                (< (float-time) deadline))
      (bench-pause 0.001))
    (bench-put 'preload_ms (and held (- held t0)))
    (when held (bench-sleep 1.0))
    (bench-put 'preload_stall_ms bench-worst)))

(let ((open (bench-open))
      (rss-before (bench-rss-kb))
      start shown)
  (when (and (equal (bench-env "BENCH_PRELOAD") "1") (equal (bench-env "BENCH_MODE") "open")
             (equal bench-tree "carrel"))
    (bench-preload))
  (bench-stall-window)
  (setq start (bench-now))
  (funcall open)
  (setq shown (bench-wait "Poems" 60))
  (bench-put 'open_ms (and shown (- shown start)))
  (bench-sleep 1.0)
  (bench-put 'stall_open_ms bench-worst)
  ;; Expanding a folder of a thousand: RET on its row, as a writer does, until its first child shows.
  (when (and (equal (bench-env "BENCH_MODE") "open") (bench-goto-row "Letters"))
    (let ((t0 (bench-now)))
      (call-interactively (key-binding (kbd "RET")))
      (let ((at (bench-wait "Letter 0000.md" 30)))
        (bench-put 'expand_ms (and at (- at t0))))))
  ;; BENCH_CHANGES_IN: the changes go into that folder, expanded first.
  (when (and (equal (bench-env "BENCH_MODE") "changes")
             (not (member (bench-env "BENCH_CHANGES_IN") '(nil "")))
             (bench-goto-row (bench-env "BENCH_CHANGES_IN")))
    (call-interactively (key-binding (kbd "RET")))
    (bench-wait "Letter 0000.md" 30)
    (bench-sleep 1.0)
    (bench-put 'changes_in (bench-env "BENCH_CHANGES_IN")))
  (when (equal (bench-env "BENCH_MODE") "changes")
    (let ((times nil) (bytes nil)
          (into (if (member (bench-env "BENCH_CHANGES_IN") '(nil "")) bench-library
                  (expand-file-name (bench-env "BENCH_CHANGES_IN") bench-library))))
      (dotimes (j (string-to-number (bench-env "BENCH_CHANGES")))
        (let* ((name (format "Outside %d.md" (1+ j)))
               (staging (expand-file-name name (bench-env "BENCH_STAGING")))
               (before (bench-count))
               at t0)
          ;; Written elsewhere and renamed in: one step, as another program saves.
          (write-region "words\n" nil staging nil 'silent)
          (setq t0 (bench-now))
          (rename-file staging (expand-file-name name into))
          (setq at (bench-wait name 5))
          (bench-sleep 0.1)
          (push (if at (- at t0) -1) times)
          (push (if before (- (bench-count) before) -1) bytes)
          (when (= j 99) (bench-put 'rss_after_100_kb (bench-rss-kb)))))
      (bench-put 'change_ms (vconcat (nreverse times)))
      (bench-put 'change_bytes (vconcat (nreverse bytes)))
      (bench-put 'rss_before_kb rss-before)
      (bench-put 'rss_after_kb (bench-rss-kb))))
  ;; After the changes, and alone in the sessions of mode `burst'.
  (when (member (bench-env "BENCH_MODE") '("changes" "burst"))
    (let ((burst (string-to-number (bench-env "BENCH_BURST"))))
      ;; As long after the open as in a change session: the words are counted.
      (when (equal (bench-env "BENCH_MODE") "burst") (bench-sleep 5.0))
      (when (> burst 0)
        (bench-stall-window)
        (start-process "burst" nil "python3" (expand-file-name "burst.py" (bench-env "BENCH_DIR"))
                       bench-library (number-to-string burst))
        (bench-wait (format "Burst %d.md" (1- burst)) 120)
        (bench-sleep 0.5)
        (bench-put 'stall_burst_ms bench-worst)))))

(with-temp-file (bench-env "BENCH_OUT") (insert (json-encode bench-result)))
(kill-emacs 0)
