;;; carrel.el --- The Carrel binder: writing projects in a tree  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The Carrel authors
;; SPDX-License-Identifier: MIT

;; Author: The Carrel authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: files, wp, outlines
;; URL: https://github.com/carrel-app/carrel

;; This file is not part of GNU Emacs.

;;; License:

;; Permission is hereby granted, free of charge, to any person obtaining a copy
;; of this software and associated documentation files (the "Software"), to deal
;; in the Software without restriction, including without limitation the rights
;; to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
;; copies of the Software, and to permit persons to whom the Software is
;; furnished to do so, subject to the following conditions:
;;
;; The above copyright notice and this permission notice shall be included in all
;; copies or substantial portions of the Software.
;;
;; THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
;; IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
;; FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
;; AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
;; LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
;; OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
;; SOFTWARE.

;;; Commentary:

;; Carrel gives a writer the binder of a writing app inside Emacs:
;; projects of a type (Blank, Poetry, Short Story, Novel, Script), each
;; with permanent template folders grouped in sections, nested folders
;; and files, with new folder, new file, rename, move to, delete to
;; Trash, restore, sorting and counts.  Everything stays plain files on
;; disk.
;;
;; The project model lives in the `carrel lsp' server; this package is a
;; thin client that talks to it over JSON-RPC with the built-in
;; `jsonrpc' library.  `M-x carrel' opens the binder in a tree buffer
;; (`carrel-tree-mode'); `carrel-rename-file', `carrel-move-file',
;; `carrel-delete-file' and `carrel-reveal' act on the visited file.
;; Buffers follow their files when anything renames or moves them.
;;
;; See README.md for installation, keys and options.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'hl-line)
(require 'project)
(require 'seq)
(require 'subr-x)
(require 'text-property-search)

;;;; Options

(defgroup carrel nil
  "The Carrel binder: writing projects as plain files, in a tree."
  :group 'files
  :prefix "carrel-")

(defcustom carrel-server-command '("carrel" "lsp")
  "Command that starts the Carrel server, as a program and its arguments.
The program must speak JSON-RPC on standard input and output, as
`carrel lsp' does.  Use an absolute path when `carrel' is not on
variable `exec-path'."
  :type '(repeat string))

(defcustom carrel-library-directory nil
  "Directory of the writer's Carrel library, or nil.
When non-nil, `carrel' opens this library unless the current
directory already belongs to an open Carrel library.  When nil,
`carrel' guesses from the current directory: the library that
holds the enclosing Carrel project, else the version-control
root, else the directory itself."
  :type '(choice (const :tag "Guess from the current directory" nil)
                 directory))

(defcustom carrel-icon-style 'auto
  "How the tree shows each row's icon.
`glyph' shows a Unicode glyph for the server's icon name, `text'
a short ASCII mark, `none' no icon.  `auto' uses glyphs on
graphical frames and ASCII marks on a terminal."
  :type '(choice (const :tag "Glyphs on graphical frames, text on terminals" auto)
                 (const :tag "Unicode glyphs" glyph)
                 (const :tag "ASCII marks" text)
                 (const :tag "No icons" none)))

(defcustom carrel-icons
  '(("books.vertical" "📚" "#")
    ("folder.badge.person.crop" "🗂" "@")
    ("list.bullet" "" "")
    ("folder" "📁" "/")
    ("doc.text" "📄" ".")
    ("globe" "🌐" "*")
    ("doc.badge.ellipsis" "📝" "=")
    ("checkmark.circle" "✅" "=")
    ("archivebox" "🗃" "=")
    ("book.circle" "📖" "=")
    ("paperplane" "📨" "=")
    ("magnifyingglass" "🔍" "=")
    ("magazine" "📰" "=")
    ("medal" "🏅" "=")
    ("person.2" "👥" "=")
    ("tray" "📥" "=")
    ("book.closed.fill" "📕" "=")
    ("document.on.document" "📑" "=")
    ("document.badge.plus" "🗒" "=")
    ("person.circle" "👤" "=")
    ("mountain.2" "⛰" "=")
    ("trash" "🗑" "~")
    ("link" "🔗" "="))
  "Icons for the server's SF Symbol names.
Each entry is (NAME GLYPH TEXT): GLYPH is shown when
`carrel-icon-style' resolves to `glyph', TEXT when it resolves to
`text'.  Names missing here show as \"•\" or \"=\"."
  :type '(repeat (list (string :tag "SF Symbol name")
                       (string :tag "Glyph")
                       (string :tag "Text"))))

(defcustom carrel-visit-function #'find-file-other-window
  "Function that visits a file chosen in the tree.
It is called with the file name, by RET on a file and after a new
file is created."
  :type '(choice (const :tag "Other window" find-file-other-window)
                 (const :tag "Same window" find-file)
                 function))

(defcustom carrel-tab-toggles t
  "Non-nil means TAB toggles the folder at point, like RET.
When nil, TAB moves to the next row, so the tree reads like a list."
  :type 'boolean)

(defcustom carrel-confirm-style 'multiple-choice
  "How Carrel asks the server's confirmations, such as before a delete.
`multiple-choice' answers with a single key through
`read-multiple-choice'; `completing-read' picks the answer in the
minibuffer.  Either way, \\[keyboard-quit] answers Cancel and nothing
is deleted."
  :type '(choice (const :tag "One key" multiple-choice)
                 (const :tag "Minibuffer completion" completing-read)))

(defcustom carrel-events-buffer-size 2000000
  "Most characters `carrel-events-buffer' keeps; 0 logs nothing, nil no limit."
  :type '(choice (const :tag "No limit" nil) integer))

(defcustom carrel-locale nil
  "Language for the server's messages, such as \"fr\", or nil.
Nil takes it from the LC_ALL, LC_MESSAGES or LANG environment variables."
  :type '(choice (const :tag "From the environment" nil) string))

(defcustom carrel-eglot-folders t
  "Non-nil means stock eglot lists the folders the Carrel server finds.
The server answers workspace/symbol, which \\[xref-find-apropos]
asks through eglot, with folders as well as files.  Eglot 1.9
reads every result as a file to show a line of it, so one folder
stops the whole search with \"Read error: Is a directory\".  When
this is non-nil, carrel.el shows a folder result as its name and
opens it in Dired; nil leaves eglot as it is.  It takes effect at
once: carrel.el checks it on every result."
  :type 'boolean)

(defface carrel-section '((t :inherit bold))
  "Face of section headers in the Carrel tree.")

(defface carrel-folder '((t :inherit font-lock-function-name-face))
  "Face of folder, project and library titles in the Carrel tree.")

(defface carrel-count '((t :inherit shadow))
  "Face of the folder and file counts in the Carrel tree.")

;;;; URIs

(defun carrel--path-to-uri (path)
  "Return the percent-encoded file URI of PATH."
  (concat "file://"
          (mapconcat (lambda (byte)
                       (if (or (<= ?a byte ?z) (<= ?A byte ?Z) (<= ?0 byte ?9)
                               (memq byte '(?/ ?- ?_ ?. ?~)))
                           (string byte)
                         (format "%%%02X" byte)))
                     (encode-coding-string (directory-file-name
                                            (expand-file-name path))
                                           'utf-8 t)
                     "")))

(defun carrel--uri-to-path (uri)
  "Return the file name that the file URI URI names."
  (let ((raw (string-remove-prefix "file://" uri)))
    (decode-coding-string
     (replace-regexp-in-string
      "%[0-9A-Fa-f][0-9A-Fa-f]"
      ;; A byte, not the character of that code: the result is UTF-8 to decode.
      (lambda (hex) (unibyte-string (string-to-number (substring hex 1) 16)))
      (encode-coding-string raw 'utf-8 t) t t)
     'utf-8)))

(defun carrel--path-under-p (path root)
  "Return non-nil if PATH is ROOT or lies inside it."
  (let ((path (directory-file-name path))
        (root (directory-file-name root)))
    (or (string= path root)
        (string-prefix-p (file-name-as-directory root) path))))

;;;; Connections

(defclass carrel--connection (jsonrpc-process-connection)
  ((root :initarg :root :reader carrel--root
         :documentation "The library directory this server serves.")
   (refresh-timer :initform nil :accessor carrel--refresh-timer
                  :documentation "Pending tree refresh after a change.")
   (closing :initform nil :accessor carrel--closing
            :documentation "Non-nil once `exit' was sent: write nothing more.")
   (tree :initform nil :accessor carrel--tree
         :documentation "The buffer showing this library's tree."))
  :documentation "A connection to one `carrel lsp' server.")

(defvar carrel--connections nil
  "Live connections to Carrel servers.")

(defconst carrel--command-timeout 86400
  "Seconds to wait for a command's answer.
Long, because a command may wait on the writer's answer to a
confirmation.")

(defun carrel--locale ()
  "Return the locale to announce to the server."
  (let ((env (or carrel-locale
                 (seq-find (lambda (v) (and v (not (string-empty-p v))))
                           (mapcar #'getenv '("LC_ALL" "LC_MESSAGES" "LANG"))))))
    (if (or (null env) (member env '("C" "POSIX")) (string-prefix-p "C." env))
        "en"
      (string-replace "_" "-" (car (split-string env "[.@]"))))))

(defun carrel--connection-for (path)
  "Return the live connection for the library around PATH, or nil."
  (let ((path (expand-file-name path)))
    (seq-find (lambda (conn)
                (and (jsonrpc-running-p conn)
                     (carrel--path-under-p path (carrel--root conn))))
              carrel--connections)))

(defun carrel--start (root)
  "Start a Carrel server for the library ROOT and return its connection."
  (let* ((root (directory-file-name (expand-file-name root)))
         (name (format "carrel %s" (file-name-nondirectory root)))
         (default-directory (file-name-as-directory root))
         (program (car carrel-server-command))
         (conn nil))
    ;; Checked first: writing to a server that failed to start can kill
    ;; a batch Emacs with SIGPIPE.
    (unless (executable-find (if (string-match-p "/" program)
                                 (expand-file-name program)
                               program))
      (user-error "Carrel cannot find the server program “%s”; set `carrel-server-command'"
                  program))
    (condition-case err
        (progn
          (setq conn (make-instance
                      'carrel--connection
                      :name name
                      :root root
                      :events-buffer-scrollback-size carrel-events-buffer-size
                      :process
                      (lambda ()
                        (make-process
                         :name name :command carrel-server-command
                         :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                         :stderr (get-buffer-create (format "*%s stderr*" name))))
                      :request-dispatcher #'carrel--handle-request
                      :notification-dispatcher #'carrel--handle-notification
                      :on-shutdown (lambda (conn)
                                     (setq carrel--connections
                                           (delq conn carrel--connections)))))
          (carrel--request
           conn 'initialize
           (list :processId (emacs-pid)
                 :locale (carrel--locale)
                 :clientInfo (list :name "carrel.el")
                 :rootUri (carrel--path-to-uri root)
                 :workspaceFolders (vector (list :uri (carrel--path-to-uri root)
                                                 :name (file-name-nondirectory root)))
                 :capabilities (list :window (list :showMessage (make-hash-table)))))
          (jsonrpc-notify conn 'initialized (make-hash-table)))
      (error
       (when conn (ignore-errors (jsonrpc-shutdown conn t)))
       (user-error "Carrel could not start “%s” in %s (%s); check `carrel-server-command'"
                   (string-join carrel-server-command " ") root
                   (if (eq (car err) 'jsonrpc-error)
                       (carrel--error-message err)
                     (error-message-string err)))))
    (push conn carrel--connections)
    conn))

(defun carrel--guess-root ()
  "Return the library that `carrel' should open here, or nil when unsure.
That is an open library around the current directory, else
`carrel-library-directory', else the folder holding the enclosing
Carrel project."
  (let* ((dir (expand-file-name default-directory))
         (conn (carrel--connection-for dir))
         (project (locate-dominating-file dir ".carrel/project.json")))
    (cond
     (conn (carrel--root conn))
     (carrel-library-directory (expand-file-name carrel-library-directory))
     (project (file-name-directory (directory-file-name project))))))

(defun carrel--read-root ()
  "Ask for the folder of the writer's projects; offer the current one."
  (let ((vc (project-current nil default-directory)))
    (read-directory-name "Carrel library: "
                         (if vc (project-root vc) default-directory))))

(defun carrel--ensure-connection (root)
  "Return a live connection for the library around ROOT; start one if needed.
Offer to create ROOT when it does not exist yet."
  (or (carrel--connection-for root)
      (progn
        (unless (file-directory-p root)
          (if (y-or-n-p (format "Create the library %s? " (abbreviate-file-name root)))
              (make-directory root t)
            (user-error "No library opened")))
        (carrel--start root))))

(defun carrel--file-connection ()
  "Return the connection for the current buffer's file, or signal a user error."
  (unless buffer-file-name
    (user-error "This buffer is not visiting a file"))
  (or (carrel--connection-for buffer-file-name)
      (let ((default-directory (file-name-directory buffer-file-name)))
        (carrel--ensure-connection (or (carrel--guess-root) (carrel--read-root))))))

(defun carrel-shutdown (conn)
  "Stop the Carrel server of connection CONN."
  (interactive (list (or (carrel--tree-connection t)
                         (car carrel--connections)
                         (user-error "No Carrel server is running"))))
  (when (carrel--refresh-timer conn)
    (cancel-timer (carrel--refresh-timer conn)))
  (when (jsonrpc-running-p conn)
    (ignore-errors (carrel--request conn 'shutdown nil 2))
    ;; A change arriving from now on must not schedule a request: writing
    ;; to a server that has exited kills a batch Emacs with SIGPIPE.
    (setf (carrel--closing conn) t)
    (ignore-errors (jsonrpc-notify conn 'exit nil))
    ;; Let it exit by itself before `jsonrpc-shutdown' kills it.
    (let ((deadline (+ (float-time) 1)))
      (while (and (jsonrpc-running-p conn) (< (float-time) deadline))
        (accept-process-output nil 0.05)))
    (ignore-errors (jsonrpc-shutdown conn)))
  (setq carrel--connections (delq conn carrel--connections)))

(defun carrel-events-buffer (conn)
  "Show the raw JSON-RPC traffic with the Carrel server of CONN."
  (interactive (list (or (carrel--tree-connection t)
                         (and buffer-file-name
                              (carrel--connection-for buffer-file-name))
                         (car carrel--connections)
                         (user-error "No Carrel server is running"))))
  (display-buffer (jsonrpc-events-buffer conn)))

;;;; Requests

(defun carrel--error-message (err)
  "Return the server's message from the `jsonrpc-error' ERR."
  (or (alist-get 'jsonrpc-error-message (cdr err))
      (error-message-string err)))

(defun carrel--request (conn method params &optional timeout)
  "Ask CONN's server METHOD with PARAMS and return the result.
A server error becomes a `user-error' with the server's message.
TIMEOUT is in seconds."
  ;; Not `jsonrpc-request': it leaves its wait by throwing from inside
  ;; the process filter, which abandons every message that came in the
  ;; same chunk after the reply (the `carrel/didChange' a command sends
  ;; right after answering) until the server happens to write again.
  ;; Here the reply only sets a flag, so the filter reads the whole chunk.
  (let ((outcome nil))
    (jsonrpc-async-request
     conn method params
     :success-fn (lambda (result) (setq outcome (list :result result)))
     :error-fn (lambda (err) (setq outcome (list :error (plist-get err :message))))
     :timeout-fn (lambda () (setq outcome (list :error "Timed out")))
     :timeout (or timeout jsonrpc-default-request-timeout))
    (while (not outcome)
      (unless (jsonrpc-running-p conn)
        (setq outcome (list :error "The Carrel server stopped")))
      (accept-process-output nil 0.05))
    (if (eq (car outcome) :error)
        (user-error "%s" (or (cadr outcome) "The Carrel server refused"))
      (cadr outcome))))

(defun carrel--execute (conn command &rest arguments)
  "Run the server COMMAND with the plist ARGUMENTS through CONN."
  (carrel--request conn 'workspace/executeCommand
                   (list :command command :arguments (vector arguments))
                   carrel--command-timeout))

(defun carrel--fetch-tree (conn)
  "Return the whole tree that CONN's server serves, as a list of nodes."
  (append (carrel--request conn 'carrel/tree (make-hash-table)) nil))

;;;; Messages from the server

(defun carrel--read-choice (prompt choices &optional default)
  "Read one of CHOICES with PROMPT, listed in their given order.
CHOICES is a list of strings or an alist keyed by strings; DEFAULT
is what RET on empty input gives."
  (completing-read prompt
                   (lambda (string predicate action)
                     (if (eq action 'metadata)
                         '(metadata (display-sort-function . identity)
                                    (cycle-sort-function . identity))
                       (complete-with-action action choices string predicate)))
                   nil t nil nil default))

(defun carrel--handle-request (_conn method params)
  "Answer the server's request METHOD with PARAMS."
  (pcase method
    ('window/showMessageRequest (carrel--confirm params))
    (_ (jsonrpc-error :code -32601
                      :message (format "Carrel for Emacs cannot answer %s" method)))))

(defun carrel--confirm (params)
  "Ask the writer the server's question in PARAMS; return the chosen action.
Return nil, which the server reads as Cancel, when the writer quits."
  (let* ((actions (append (plist-get params :actions) nil))
         (titles (mapcar (lambda (action) (plist-get action :title)) actions))
         (choice (condition-case nil
                     (let ((inhibit-quit nil))
                       (carrel--choose (plist-get params :message) titles))
                   (quit nil))))
    (seq-find (lambda (action) (equal (plist-get action :title) choice))
              actions)))

(defun carrel--choose (question titles)
  "Ask QUESTION and return one of TITLES, or nil when there are none."
  (cond
   ((null titles) (message "%s" question) nil)
   ((eq carrel-confirm-style 'completing-read)
    (let ((answer (carrel--read-choice (concat question " ") titles)))
      (and (member answer titles) answer)))
   (t
    (let ((taken nil) choices)
      (dolist (title titles)
        ;; Prefer a word's initial: "Delete and Don't Ask Again" gets `a'.
        (let ((key (seq-find (lambda (c) (and (<= ?a c ?z) (not (memq c taken))))
                             (concat (mapconcat (lambda (word) (substring word 0 1))
                                                (split-string (downcase title)) "")
                                     (downcase title)
                                     "123456789"))))
          (push key taken)
          (push (list key title) choices)))
      (cadr (read-multiple-choice question (nreverse choices)))))))

(defun carrel--handle-notification (conn method params)
  "Act on the server's notification METHOD with PARAMS from CONN."
  (pcase method
    ('carrel/didChange
     (let ((changes (append (plist-get params :changes) nil)))
       (carrel--follow-changes changes)
       (carrel--remap-expansion conn changes)
       (carrel--schedule-refresh conn)))
    ('window/showMessage (message "%s" (plist-get params :message)))))

;;;; Buffers follow their files

(defun carrel--file-buffers-under (path)
  "Return the buffers visiting PATH or a file inside it."
  (seq-filter (lambda (buffer)
                (let ((file (buffer-file-name buffer)))
                  (and file (carrel--path-under-p (expand-file-name file) path))))
              (buffer-list)))

(defun carrel--follow-changes (change-list &optional quiet)
  "Make file buffers follow CHANGE-LIST, as sent by `carrel/didChange'.
Return notes about deleted or trashed files whose buffers were kept
for their unsaved changes; unless QUIET, also show them."
  (let ((notes nil))
    (dolist (change change-list)
      (let ((path (carrel--uri-to-path (plist-get change :uri)))
            (old (and (plist-get change :oldUri)
                      (carrel--uri-to-path (plist-get change :oldUri)))))
        (setq notes
              (append notes
                      (pcase (plist-get change :type)
                        ("moved" (carrel--move-buffers
                                  old path (eq (plist-get change :inTrash) t)))
                        ("deleted" (carrel--close-buffers path)))))))
    (when (and notes (not quiet))
      (message "%s" (string-join notes "; ")))
    notes))

(defun carrel--move-buffers (old new trashed)
  "Make buffers visiting OLD, or files inside it, visit the same under NEW.
When TRASHED, the move was a delete: unmodified buffers are killed.
Return a note for each modified buffer that moved to the Trash."
  (let ((notes nil))
    (dolist (buffer (carrel--file-buffers-under old))
      (with-current-buffer buffer
        (let ((file (concat new (substring (expand-file-name buffer-file-name)
                                           (length (directory-file-name old))))))
          (if (and trashed (not (buffer-modified-p)))
              (kill-buffer buffer)
            ;; ALONG-WITH-FILE keeps the modified flag, undo and the file's
            ;; modtime, so saving later does not ask about a changed file.
            (set-visited-file-name file t t)
            (when trashed
              (push (format "“%s” is in the Trash; its buffer keeps your unsaved changes"
                            (file-name-nondirectory file))
                    notes))))))
    (nreverse notes)))

(defun carrel--close-buffers (path)
  "Kill unmodified buffers of PATH and files inside it.
Return a note for each modified buffer, which is kept."
  (let ((notes nil))
    (dolist (buffer (carrel--file-buffers-under path))
      (if (buffer-modified-p buffer)
          (push (format "“%s” was deleted; its buffer keeps your unsaved changes"
                        (file-name-nondirectory (buffer-file-name buffer)))
                notes)
        (kill-buffer buffer)))
    (nreverse notes)))

;;;; The tree buffer

(defvar-local carrel--conn nil
  "The connection whose tree this buffer shows.")

(defvar-local carrel--roots nil
  "The nodes at the top of this tree buffer.")

(defvar-local carrel--open nil
  "Hash table from node key to whether the node is expanded.
Keys that are absent take the node's default.")

(defun carrel--tree-buffer (conn &optional create)
  "Return CONN's live tree buffer, or nil.
With CREATE, make and fill it when there is none."
  (let ((buffer (carrel--tree conn)))
    (cond
     ((buffer-live-p buffer) buffer)
     (create
      (with-current-buffer (generate-new-buffer
                            (format "*carrel: %s*"
                                    (file-name-nondirectory (carrel--root conn))))
        (carrel-tree-mode)
        (setq carrel--conn conn)
        (setf (carrel--tree conn) (current-buffer))
        (carrel-refresh)
        (current-buffer))))))

(defun carrel--tree-connection (&optional noerror)
  "Return the connection of the current tree buffer.
Signal a user error if there is none, unless NOERROR."
  (cond
   ((and carrel--conn (jsonrpc-running-p carrel--conn)) carrel--conn)
   (noerror nil)
   (carrel--conn (user-error "The Carrel server stopped; run M-x carrel again"))
   (t (user-error "This is not a Carrel tree buffer"))))

(defun carrel--key (node parent parent-key)
  "Return the key of NODE, whose PARENT node has PARENT-KEY.
Files listed in a virtual folder such as \"All\" get a key of their
own, so that their real row stays the one found by URI."
  (let ((uri (plist-get node :uri)))
    (cond ((null uri) (concat parent-key "#" (plist-get node :name)))
          ((and (eq (plist-get parent :virtual) t) (plist-get parent :uri))
           (concat parent-key "#" uri))
          (t uri))))

(defun carrel--container-p (node)
  "Return non-nil if NODE can hold other nodes."
  (not (equal (plist-get node :kind) "file")))

(defun carrel--open-p (node key depth)
  "Return non-nil if NODE with KEY at DEPTH is expanded."
  (let ((state (gethash key carrel--open 'default)))
    (if (eq state 'default)
        (or (= depth 0) (member (plist-get node :kind) '("library" "section")))
      state)))

(defun carrel--icon-style ()
  "Return `carrel-icon-style', with `auto' resolved for the selected frame."
  (if (eq carrel-icon-style 'auto)
      (if (display-graphic-p) 'glyph 'text)
    carrel-icon-style))

(defun carrel--icon (node)
  "Return the icon string of NODE for the current `carrel-icon-style'."
  (let ((entry (cdr (assoc (plist-get node :icon) carrel-icons))))
    (pcase (carrel--icon-style)
      ('glyph (or (car entry) "•"))
      ('text (or (cadr entry) "="))
      (_ ""))))

(defun carrel--counts (node)
  "Return NODE's counts as \"FOLDERS ▸ FILES\", leaving out zero parts."
  (let ((folders (or (plist-get node :folderCount) 0))
        (files (or (plist-get node :fileCount) 0)))
    (string-trim
     (concat (if (> folders 0) (format "%d " folders) "")
             (if (> (+ folders files) 0) "▸" "")
             (if (> files 0) (format " %d" files) "")))))

(defun carrel--insert-node (node ancestors parent-key depth)
  "Insert NODE's row and, when it is open, its children's rows.
ANCESTORS are NODE's ancestors, nearest first; PARENT-KEY is the
parent's key; DEPTH is how far NODE lies below the top."
  (let* ((key (carrel--key node (car ancestors) parent-key))
         (kind (plist-get node :kind))
         (children (append (plist-get node :children) nil))
         (open (and children (carrel--open-p node key depth)))
         (glyphs (not (eq (carrel--icon-style) 'text)))
         (marker (cond ((not children) "  ")
                       (open (if glyphs "▾ " "- "))
                       (t (if glyphs "▸ " "+ "))))
         (icon (carrel--icon node))
         (counts (if (member kind '("file" "section")) "" (carrel--counts node)))
         (start (point)))
    (insert (make-string (* 2 depth) ?\s) marker
            (if (string-empty-p icon) "" (concat icon " "))
            (propertize (plist-get node :title)
                        'face (pcase kind
                                ("section" 'carrel-section)
                                ("file" 'default)
                                (_ 'carrel-folder)))
            (if (string-empty-p counts) ""
              (concat "  " (propertize counts 'face 'carrel-count)))
            "\n")
    (add-text-properties start (point)
                         (list 'carrel-node node 'carrel-key key
                               'carrel-parent-key parent-key
                               'carrel-ancestors ancestors))
    (when open
      (dolist (child children)
        (carrel--insert-node child (cons node ancestors) key (1+ depth))))))

(defun carrel--row (property)
  "Return PROPERTY of the row at point, wherever point is on it."
  (get-text-property (line-beginning-position) property))

(defun carrel--goto-key (key)
  "Move point to the row of KEY and return non-nil, or return nil."
  (let ((start (point)))
    (goto-char (point-min))
    (let ((match (text-property-search-forward 'carrel-key key t)))
      (goto-char (if match (prop-match-beginning match) start))
      (and match t))))

(defun carrel--render ()
  "Redraw the tree buffer, keeping each window's row when it still exists."
  (let* ((inhibit-read-only t)
         (windows (get-buffer-window-list (current-buffer) nil t))
         (spots (mapcar (lambda (pos)
                          (cons (get-text-property (save-excursion (goto-char pos) (line-beginning-position))
                                                   'carrel-key)
                                (line-number-at-pos pos)))
                        (cons (point) (mapcar #'window-point windows))))
         (restore (lambda (spot)
                    (unless (and (car spot) (carrel--goto-key (car spot)))
                      (goto-char (point-min))
                      (forward-line (1- (cdr spot))))
                    (point))))
    (erase-buffer)
    (dolist (root carrel--roots)
      (carrel--insert-node root nil "" 0))
    (goto-char (point-max))
    (when (and (bolp) (> (point) (point-min))) (delete-char -1))
    (let ((positions (mapcar restore spots)))
      (cl-mapc #'set-window-point windows (cdr positions))
      (goto-char (car positions)))))

(defun carrel--breadcrumb ()
  "Return the header-line breadcrumb of the row at point."
  (let* ((node (carrel--row 'carrel-node))
         (trail (if node
                    (reverse (cons node (carrel--row 'carrel-ancestors)))
                  (seq-take carrel--roots 1))))
    (string-replace
     "%" "%%"
     (mapconcat (lambda (n) (plist-get n :title))
                (seq-remove (lambda (n) (equal (plist-get n :kind) "section")) trail)
                " › "))))

(defun carrel--schedule-refresh (conn)
  "Refresh CONN's tree buffer soon, once per burst of edits."
  (unless (or (carrel--refresh-timer conn) (carrel--closing conn))
    (setf (carrel--refresh-timer conn)
          (run-at-time
           0.05 nil
           (lambda ()
             (setf (carrel--refresh-timer conn) nil)
             (when (and (jsonrpc-running-p conn) (not (carrel--closing conn))
                        (carrel--tree-buffer conn))
               (jsonrpc-async-request
                conn 'carrel/tree (make-hash-table)
                :success-fn
                (lambda (roots)
                  (let ((buffer (carrel--tree-buffer conn)))
                    (when (buffer-live-p buffer)
                      (with-current-buffer buffer
                        (setq carrel--roots (append roots nil))
                        (carrel--render)))))
                :error-fn
                (lambda (err)
                  (when (jsonrpc-running-p conn)
                    (message "Carrel: %s" (plist-get err :message)))))))))))

(defun carrel--remap-expansion (conn change-list)
  "Keep folders expanded in CONN's tree after CHANGE-LIST moved them."
  (let ((buffer (carrel--tree-buffer conn)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (dolist (change change-list)
          (let ((old (plist-get change :oldUri))
                (new (plist-get change :uri)))
            (when old
              (maphash (lambda (key state)
                         (when (or (equal key old)
                                   (string-prefix-p (concat old "/") key)
                                   (string-prefix-p (concat old "#") key))
                           (remhash key carrel--open)
                           (puthash (concat new (substring key (length old)))
                                    state carrel--open)))
                       (copy-hash-table carrel--open)))))))))

;;;; Tree helpers for commands

(defun carrel--node-at-point ()
  "Return the node on the current row, or signal a user error."
  (or (carrel--row 'carrel-node)
      (user-error "No item on this line")))

(defun carrel--item-at-point ()
  "Return the file or folder at point, or signal a user error on a section."
  (let ((node (carrel--node-at-point)))
    (unless (plist-get node :uri)
      (user-error "“%s” is a section header; only what it holds can change"
                  (plist-get node :title)))
    node))

(defun carrel--lineage ()
  "Return the node at point followed by its ancestors, nearest first."
  (cons (carrel--node-at-point) (carrel--row 'carrel-ancestors)))

(defun carrel--nearest (pred)
  "Return the nearest of the node at point and its ancestors that PRED accepts."
  (seq-find pred (carrel--lineage)))

(defun carrel--kind-p (&rest kinds)
  "Return a predicate that accepts nodes of one of KINDS."
  (lambda (node) (member (plist-get node :kind) kinds)))

(defun carrel--folder-at-point ()
  "Return the folder, project or library at point, or the file's parent."
  (or (carrel--nearest (lambda (node)
                         (and (plist-get node :uri) (carrel--container-p node))))
      (user-error "No folder here")))

(defun carrel--open-node (node ancestors)
  "Mark NODE, reached through ANCESTORS, and all of them expanded."
  (let ((keys nil) (parent-key "") (parent nil))
    (dolist (n (reverse (cons node ancestors)))
      (setq parent-key (carrel--key n parent parent-key))
      (setq parent n)
      (push parent-key keys))
    (dolist (key keys) (puthash key t carrel--open))))

(defun carrel--find (pred &optional roots)
  "Return (NODE . ANCESTORS) for the first node in ROOTS that PRED accepts.
ROOTS defaults to the tree buffer's roots; ANCESTORS are nearest first.
Virtual folders such as \"All\" are not searched: what they list
lives elsewhere too."
  (cl-labels ((walk (nodes ancestors)
                    (cl-loop for node in nodes
                             thereis (cond
                                      ((funcall pred node) (cons node ancestors))
                                      ((and (eq (plist-get node :virtual) t)
                                            (plist-get node :uri))
                                       nil)
                                      (t (walk (append (plist-get node :children) nil)
                                               (cons node ancestors)))))))
    (walk (or roots carrel--roots) nil)))

(defun carrel--refresh-and-show (&optional uri)
  "Fetch the tree again and put point on the row of URI, expanding its parents."
  (setq carrel--roots (carrel--fetch-tree (carrel--tree-connection)))
  (let ((found (and uri (carrel--find (lambda (n) (equal (plist-get n :uri) uri))))))
    (when (cdr found) (carrel--open-node (cadr found) (cddr found))))
  (carrel--render)
  (when uri (carrel--goto-key uri)))

(defun carrel--folder-choices (roots &optional node)
  "Return an alist of folder path to folder node, from ROOTS, for moving NODE.
NODE itself, what lies inside it and its current folder are left out."
  (let* ((uri (plist-get node :uri))
         (parent (and uri (directory-file-name
                           (file-name-directory (carrel--uri-to-path uri)))))
         (choices nil))
    (cl-labels ((walk (nodes path)
                      (dolist (n nodes)
                        (let ((here (if (equal (plist-get n :kind) "section")
                                        path
                                      (append path (list (plist-get n :title))))))
                          (unless (or (and uri (equal (plist-get n :uri) uri))
                                      (eq (plist-get n :inTrash) t)
                                      (eq (plist-get n :link) t))
                            (when (and (plist-get n :uri)
                                       (member (plist-get n :kind)
                                               '("library" "project" "folder"))
                                       (not (eq (plist-get n :virtual) t))
                                       (not (equal (carrel--uri-to-path (plist-get n :uri))
                                                   parent)))
                              (push (cons (string-join here "/") n) choices))
                            (walk (append (plist-get n :children) nil) here))))))
      (walk roots nil))
    (nreverse choices)))

(defconst carrel--new-folder-choice "New folder…"
  "The Move To choice that first creates the destination folder.")

(defun carrel--read-destination (conn roots node)
  "Ask where to move NODE among ROOTS; return the destination folder's URI.
Choosing \"New folder…\" creates the folder through CONN first."
  (let* ((choices (carrel--folder-choices roots node))
         (answer (carrel--read-choice
                  (format "Move “%s” to: " (plist-get node :title))
                  (cons carrel--new-folder-choice (mapcar #'car choices)))))
    (if (equal answer carrel--new-folder-choice)
        (let* ((name (read-string "New folder name: "))
               (parents (carrel--folder-choices roots))
               (parent (cdr (assoc (carrel--read-choice (format "Create “%s” in: " name)
                                                        (mapcar #'car parents))
                                   parents))))
          (unless parent (user-error "No folder chosen; nothing was moved"))
          (plist-get (carrel--execute conn "carrel.newFolder"
                                      :parentUri (plist-get parent :uri) :name name)
                     :uri))
      (or (plist-get (cdr (assoc answer choices)) :uri)
          (user-error "No such folder: %s" answer)))))

(defun carrel--report-moved (old-uri result)
  "Make buffers follow the move of OLD-URI that the server answered with RESULT."
  (when (plist-get result :uri)
    (carrel--follow-changes
     (list (list :type "moved" :oldUri old-uri :uri (plist-get result :uri)
                 :inTrash (plist-get result :inTrash))))))

(defun carrel--report-deleted (node result)
  "Tell the writer how NODE was deleted, given the server's RESULT, and follow."
  (let* ((title (plist-get node :title))
         (change (if (plist-get result :uri)
                     (list :type "moved" :oldUri (plist-get node :uri)
                           :uri (plist-get result :uri) :inTrash t)
                   (list :type "deleted" :uri (plist-get node :uri))))
         (notes (carrel--follow-changes (list change) t)))
    (message "%s%s"
             (format (cond ((plist-get result :uri) "Moved “%s” to the Trash")
                           ((plist-get result :systemTrash) "Moved “%s” to the system Trash")
                           (t "Deleted “%s” for good"))
                     title)
             (if notes "; its buffer keeps your unsaved changes" ""))))

;;;; Tree commands

(defun carrel-open ()
  "Visit the file at point, or expand or collapse the folder at point."
  (interactive)
  (let ((node (carrel--node-at-point)))
    (if (carrel--container-p node)
        (carrel-toggle)
      (funcall carrel-visit-function (carrel--uri-to-path (plist-get node :uri))))))

(defun carrel-toggle ()
  "Expand or collapse the row at point."
  (interactive)
  (let* ((node (carrel--node-at-point))
         (key (carrel--row 'carrel-key))
         (depth (length (carrel--row 'carrel-ancestors))))
    (unless (carrel--container-p node)
      (user-error "“%s” is a file" (plist-get node :title)))
    (puthash key (not (carrel--open-p node key depth)) carrel--open)
    (carrel--render)))

(defun carrel-tab ()
  "Toggle the row at point, or go to the next row; see `carrel-tab-toggles'."
  (interactive)
  (if carrel-tab-toggles (carrel-toggle) (forward-line 1)))

(defun carrel-new-file (name)
  "Create a file called NAME in the folder at point and visit it.
The server adds the project's default extension when NAME has none."
  (interactive (list (read-string "New file name: ")))
  (let* ((folder (carrel--folder-at-point))
         (node (carrel--execute (carrel--tree-connection) "carrel.newFile"
                                :parentUri (plist-get folder :uri) :name name)))
    (carrel--refresh-and-show (plist-get node :uri))
    (funcall carrel-visit-function (carrel--uri-to-path (plist-get node :uri)))
    (goto-char (point-max))))

(defun carrel-new-folder (name)
  "Create a folder called NAME in the folder at point."
  (interactive (list (read-string "New folder name: ")))
  (let ((node (carrel--execute (carrel--tree-connection) "carrel.newFolder"
                               :parentUri (plist-get (carrel--folder-at-point) :uri)
                               :name name)))
    (carrel--refresh-and-show (plist-get node :uri))))

(defun carrel-rename (new-name)
  "Rename the item at point to NEW-NAME."
  (interactive
   (list (read-string "Rename to: " (plist-get (carrel--item-at-point) :name))))
  (let* ((node (carrel--item-at-point))
         (result (carrel--execute (carrel--tree-connection) "carrel.rename"
                                  :uri (plist-get node :uri) :newName new-name)))
    (carrel--report-moved (plist-get node :uri) result)
    (carrel--remap-expansion carrel--conn
                             (list (list :oldUri (plist-get node :uri)
                                         :uri (plist-get result :uri))))
    (carrel--refresh-and-show (plist-get result :uri))))

(defun carrel-move ()
  "Move the item at point to a folder read in the minibuffer."
  (interactive)
  (let* ((node (carrel--item-at-point))
         (conn (carrel--tree-connection))
         (destination (carrel--read-destination conn carrel--roots node))
         (result (carrel--execute conn "carrel.moveTo" :uri (plist-get node :uri)
                                  :destinationUri destination)))
    (carrel--report-moved (plist-get node :uri) result)
    (carrel--remap-expansion conn (list (list :oldUri (plist-get node :uri)
                                              :uri (plist-get result :uri))))
    (carrel--refresh-and-show (plist-get result :uri))))

(defun carrel-delete ()
  "Move the item at point to its project's Trash.
In the Trash, delete it for good.  The server asks first."
  (interactive)
  (let* ((node (carrel--item-at-point))
         (result (carrel--execute (carrel--tree-connection) "carrel.delete"
                                  :uri (plist-get node :uri))))
    (carrel--report-deleted node result)
    (carrel--refresh-and-show)))

(defun carrel-restore ()
  "Put the Trash item at point back where it was deleted from."
  (interactive)
  (let* ((node (carrel--item-at-point))
         (result (carrel--execute (carrel--tree-connection) "carrel.restore"
                                  :uri (plist-get node :uri))))
    (carrel--report-moved (plist-get node :uri) result)
    (message "Restored “%s”" (plist-get result :title))
    (carrel--refresh-and-show (plist-get result :uri))))

(defun carrel-empty-trash ()
  "Delete for good everything in the Trash of the project at point."
  (interactive)
  (let* ((project (or (carrel--nearest (carrel--kind-p "project"))
                      (user-error "Put point inside a project to empty its Trash")))
         (result (carrel--execute (carrel--tree-connection) "carrel.emptyTrash"
                                  :projectUri (plist-get project :uri))))
    (message "Emptied the Trash of “%s” (%d deleted)"
             (plist-get project :title) (or (plist-get result :deleted) 0))
    (carrel--refresh-and-show)))

(defconst carrel--project-types
  '(("Blank" . "blank") ("Poetry" . "poetry") ("Short Story" . "shortStory")
    ("Novel" . "novel") ("Script" . "script"))
  "Project types: what the writer reads, and the server's word.")

(defun carrel-new-project (name type)
  "Create a project called NAME of TYPE in the library at point.
TYPE is one of the names in `carrel--project-types', such as \"Novel\"."
  (interactive
   (list (read-string "Project name: ")
         (carrel--read-choice "Project type: " (mapcar #'car carrel--project-types)
                              "Blank")))
  (let* ((library (or (carrel--nearest (carrel--kind-p "library"))
                      (car (seq-filter (carrel--kind-p "library") carrel--roots))
                      (user-error "Open Carrel on the folder that holds your projects to make a new one")))
         (node (carrel--execute (carrel--tree-connection) "carrel.newProject"
                                :parentUri (plist-get library :uri) :name name
                                :type (or (cdr (assoc type carrel--project-types))
                                          (user-error "Unknown project type: %s" type)))))
    (puthash (plist-get node :uri) t carrel--open)
    (carrel--refresh-and-show (plist-get node :uri))))

(defconst carrel--sort-choices
  '(("Name, ascending" "name" nil) ("Name, descending" "name" t)
    ("Modified, ascending" "modified" nil) ("Modified, descending" "modified" t)
    ("Created, ascending" "created" nil) ("Created, descending" "created" t))
  "Sort choices: what the writer reads, the server's field and descending.")

(defun carrel-sort (choice)
  "Sort the project at point, or the library, by CHOICE.
CHOICE is one of the names in `carrel--sort-choices'."
  (interactive (list (carrel--read-choice "Sort by: " (mapcar #'car carrel--sort-choices)
                                          (caar carrel--sort-choices))))
  (let ((target (or (carrel--nearest (carrel--kind-p "project" "library"))
                    (user-error "Nothing to sort here")))
        (how (or (cdr (assoc choice carrel--sort-choices))
                 (user-error "Unknown sort: %s" choice))))
    (carrel--execute (carrel--tree-connection) "carrel.setSort"
                     :uri (plist-get target :uri) :by (car how)
                     :descending (if (cadr how) t :json-false))
    (carrel--refresh-and-show)))

(defun carrel-refresh (&rest _)
  "Fetch the tree from the server again, keeping expanded folders and point."
  (interactive)
  (setq carrel--roots (carrel--fetch-tree (carrel--tree-connection)))
  (carrel--render))

(defun carrel-up ()
  "Move point to the parent of the row at point."
  (interactive)
  (let ((parent (carrel--row 'carrel-parent-key)))
    (unless (and parent (not (string-empty-p parent)) (carrel--goto-key parent))
      (user-error "Already at the top"))))

(defun carrel-collapse-all ()
  "Collapse every folder, leaving the top rows open."
  (interactive)
  (let ((table carrel--open))
    (clrhash table)
    (cl-labels ((walk (nodes parent parent-key depth)
                      (dolist (node nodes)
                        (let ((key (carrel--key node parent parent-key)))
                          (puthash key (= depth 0) table)
                          (walk (append (plist-get node :children) nil)
                                node key (1+ depth))))))
      (walk carrel--roots nil "" 0)))
  (carrel--render))

(defun carrel-expand-all ()
  "Expand every folder."
  (interactive)
  (let ((table carrel--open))
    (cl-labels ((walk (nodes parent parent-key)
                      (dolist (node nodes)
                        (let ((key (carrel--key node parent parent-key)))
                          (puthash key t table)
                          (walk (append (plist-get node :children) nil) node key)))))
      (walk carrel--roots nil "")))
  (carrel--render))

(defvar carrel-tree-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'carrel-open)
    (define-key map (kbd "TAB") #'carrel-tab)
    (define-key map "+" #'carrel-new-file)
    (define-key map "N" #'carrel-new-folder)
    (define-key map "R" #'carrel-rename)
    (define-key map "m" #'carrel-move)
    (define-key map "d" #'carrel-delete)
    (define-key map "u" #'carrel-restore)
    (define-key map "E" #'carrel-empty-trash)
    (define-key map "P" #'carrel-new-project)
    (define-key map "s" #'carrel-sort)
    (define-key map "g" #'carrel-refresh)
    (define-key map "^" #'carrel-up)
    (define-key map "<" #'carrel-collapse-all)
    (define-key map ">" #'carrel-expand-all)
    (define-key map "n" #'next-line)
    (define-key map "p" #'previous-line)
    map)
  "Keymap of `carrel-tree-mode'.")

(define-derived-mode carrel-tree-mode special-mode "Carrel"
  "Major mode of the Carrel binder: libraries, projects, sections, folders, files.

Each row shows an icon (see `carrel-icon-style'), a title and the
counts of folders ▸ files inside.  The header line shows where
point is, as Library › Project › Folder.  The tree follows every
change on disk, whatever made it.

\\<carrel-tree-mode-map>\\[carrel-open] visit the file, or expand or collapse the folder
\\[carrel-tab]  expand or collapse (see `carrel-tab-toggles')
\\[carrel-new-file]     New File: create a file and visit it
\\[carrel-new-folder]   New Folder
\\[carrel-rename]       Rename
\\[carrel-move] Move To: pick a folder, or \"New folder…\"
\\[carrel-delete]       Delete: move to the Trash, after the server asks
\\[carrel-restore]      Restore from the Trash
\\[carrel-empty-trash]  Empty Trash of the project
\\[carrel-new-project]  New Project of a type
\\[carrel-sort] Sort by name, modified or created date
\\[carrel-refresh]      Refresh
\\[carrel-up]   go to the parent row
\\[carrel-collapse-all] Collapse All
\\[carrel-expand-all]   expand all

\\{carrel-tree-mode-map}"
  (setq carrel--open (make-hash-table :test #'equal))
  (setq truncate-lines t)
  (setq buffer-undo-list t)
  (setq header-line-format '(:eval (carrel--breadcrumb)))
  (hl-line-mode 1)
  (setq-local revert-buffer-function #'carrel-refresh)
  (add-hook 'kill-buffer-hook #'carrel--tree-killed nil t))

(defun carrel--tree-killed ()
  "Stop the server when its tree buffer is killed."
  (when (and carrel--conn (jsonrpc-running-p carrel--conn))
    (carrel-shutdown carrel--conn)))

;;;; Entry points

;;;###autoload
(defun carrel (&optional directory)
  "Open the Carrel binder of the library DIRECTORY.
Interactively, that is an open library around the current
directory, else `carrel-library-directory', else the folder that
holds the Carrel project you are in.  Otherwise, or with a prefix
argument, ask which folder holds your projects."
  (interactive
   (list (and (or current-prefix-arg (not (carrel--guess-root)))
              (carrel--read-root))))
  (let ((conn (carrel--ensure-connection
               (or directory (carrel--guess-root) (carrel--read-root)))))
    (pop-to-buffer (carrel--tree-buffer conn t))))

(defun carrel--file-node (conn)
  "Return the tree from CONN and the path to the current buffer's file in it.
The result is (ROOTS NODE . ANCESTORS)."
  (let* ((roots (carrel--fetch-tree conn))
         (file (expand-file-name buffer-file-name))
         (found (carrel--find (lambda (n)
                                (and (plist-get n :uri)
                                     (not (eq (plist-get n :virtual) t))
                                     (equal (carrel--uri-to-path (plist-get n :uri))
                                            file)))
                              roots)))
    (unless found
      (user-error "“%s” is not in the Carrel binder" (file-name-nondirectory file)))
    (cons roots found)))

;;;###autoload
(defun carrel-rename-file (new-name)
  "Rename the visited file to NEW-NAME through Carrel."
  (interactive
   (list (progn (carrel--file-connection)
                (read-string "Rename to: " (file-name-nondirectory
                                            (or buffer-file-name ""))))))
  (let* ((uri (carrel--path-to-uri buffer-file-name))
         (result (carrel--execute (carrel--file-connection) "carrel.rename"
                                  :uri uri :newName new-name)))
    (carrel--report-moved uri result)))

;;;###autoload
(defun carrel-move-file ()
  "Move the visited file to another folder of its Carrel library."
  (interactive)
  (let* ((conn (carrel--file-connection))
         (found (carrel--file-node conn))
         (node (cadr found))
         (destination (carrel--read-destination conn (car found) node))
         (result (carrel--execute conn "carrel.moveTo" :uri (plist-get node :uri)
                                  :destinationUri destination)))
    (carrel--report-moved (plist-get node :uri) result)))

;;;###autoload
(defun carrel-delete-file ()
  "Move the visited file to its project's Trash; the server asks first."
  (interactive)
  (let* ((conn (carrel--file-connection))
         (node (cadr (carrel--file-node conn)))
         (result (carrel--execute conn "carrel.delete" :uri (plist-get node :uri))))
    (carrel--report-deleted node result)))

;;;###autoload
(defun carrel-reveal ()
  "Show the visited file in the Carrel tree, expanding the folders above it."
  (interactive)
  (let* ((conn (carrel--file-connection))
         (uri (plist-get (cadr (carrel--file-node conn)) :uri))
         (buffer (carrel--tree-buffer conn t)))
    (pop-to-buffer buffer)
    (carrel--refresh-and-show uri)))

;;;; Eglot

(declare-function xref-make-match "xref" (summary location length))
(declare-function xref-make-file-location "xref" (file line column))

(defun carrel--eglot-xref-make-match (orig name uri range &rest more)
  "Make eglot's xref for a folder result without reading the folder.
ORIG is `eglot--xref-make-match', called with NAME, URI, RANGE and
MORE for anything that is not an existing directory, or for
everything when `carrel-eglot-folders' is nil."
  (let* ((text (if (keywordp uri) (substring (symbol-name uri) 1) uri))
         (dir (and carrel-eglot-folders
                   (stringp text)
                   (string-prefix-p "file://" text)
                   ;; Eglot prefixes the project's remote part the same way.
                   (concat (file-remote-p default-directory)
                           (carrel--uri-to-path text)))))
    (if (and dir (file-directory-p dir))
        ;; Length 0: there is no text in a folder to highlight or replace.
        (xref-make-match (propertize (file-name-as-directory
                                      (file-name-nondirectory
                                       (directory-file-name dir)))
                                     'face 'xref-match)
                         (xref-make-file-location dir 1 0)
                         0)
      (apply orig name uri range more))))

(defun carrel--eglot-setup (&optional _file)
  "Teach eglot to list folders, once eglot is loaded.
Run from `after-load-functions', which passes the loaded file's name."
  (when (featurep 'eglot)
    (remove-hook 'after-load-functions #'carrel--eglot-setup)
    ;; A later eglot may rename this internal function: then do nothing.
    (when (fboundp 'eglot--xref-make-match)
      (advice-add 'eglot--xref-make-match :around #'carrel--eglot-xref-make-match))))

;; This is `with-eval-after-load' for eglot, which package-lint flags
;; in packages; requiring eglot here would load it for every writer.
(add-hook 'after-load-functions #'carrel--eglot-setup)
(carrel--eglot-setup)

(defun carrel-unload-function ()
  "Remove carrel.el's eglot advice, for `unload-feature'.
Return nil, so that unloading then goes on as usual."
  (remove-hook 'after-load-functions #'carrel--eglot-setup)
  (advice-remove 'eglot--xref-make-match #'carrel--eglot-xref-make-match)
  nil)

(provide 'carrel)
;;; carrel.el ends here
