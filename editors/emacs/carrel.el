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
;; Trash, restore, sorting and counts, undo and redo, snapshots, and
;; submissions to markets.  Everything stays plain files on disk.
;;
;; The project model lives in the `carrel lsp' server; this package is a
;; thin client that talks to it over JSON-RPC with the built-in
;; `jsonrpc' library.  `M-x carrel' opens the binder in a tree buffer
;; (`carrel-tree-mode'); `carrel-rename-file', `carrel-move-file',
;; `carrel-delete-file' and `carrel-reveal' act on the visited file.
;; Buffers follow their files when anything renames or moves them.
;;
;; The binder opens at once: when Emacs starts in a folder inside a
;; library (or `carrel-library-directory' is set), the package's
;; autoloads run `carrel-preload', which starts the server and fetches
;; the binder in the background.  Elsewhere nothing starts and the
;; package is not loaded.  Set `carrel-preload-at-startup' to nil to
;; turn it off.
;;
;; See README.md for installation, keys and options.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'map)
(require 'hl-line)
(require 'project)
(require 'seq)
(require 'subr-x)
(require 'text-property-search)

;; Loaded only once a writer's file is open: on a first start, Emacs
;; natively compiles each library it loads, Flymake's several, and the
;; binder alone should not wait for that.
(declare-function flymake-make-diagnostic "flymake")
(declare-function xref-make "xref")
(declare-function xref-make-file-location "xref")
(defvar flymake-diagnostic-functions)
(defvar xref-backend-functions)

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
`carrel' opens the folder that holds the Carrel project around the
current directory, or the nearest folder around it that holds
projects; elsewhere it asks which folder holds your projects,
offering the version-control root, else the current directory.
`carrel-preload' takes the current directory there instead of
asking."
  :type '(choice (const :tag "Guess from the current directory" nil)
                 directory))

(defcustom carrel-fetch-ahead 2000
  "Most rows of a closed folder the binder fetches before it is opened, or nil.
Once the tree has drawn its first view, and again once it has
drawn a listing that came in, it fetches the listings of the
closed folders it shows
that hold at most this many rows, so that opening one draws at
once instead of waiting for the server.  A listing held is kept
up to date from the server's changes, as the rows shown are, and
kept when its folder is closed.  A big listing comes in pages of
`carrel--fetch-page' rows.  With nil, a folder's rows are fetched
when it is opened, and forgotten when it is closed."
  :type '(choice (const :tag "Only when opened" nil) integer))

(defcustom carrel-icon-style 'auto
  "How the tree shows each row's icon.
`glyph' shows a Unicode glyph for the server's icon name, `text'
a short ASCII mark that needs no special font, `none' no icon.
`auto' uses glyphs on graphical frames that can display every one
of them, and ASCII marks otherwise, such as on a terminal."
  :type '(choice (const :tag "Glyphs where the frame shows them all, else text" auto)
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
    ("link" "🔗" ">")
    ("lock" "🔒" "!"))
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

(defcustom carrel-confirm-style 'multiple-choice
  "How Carrel asks the server's confirmations, such as before a delete.
`multiple-choice' answers with a single key, shown before each
action; `completing-read' picks the answer in the
minibuffer.  Either way, a bare RET answers the server's first
action, Cancel, and so does \\[keyboard-quit]: nothing is deleted."
  :type '(choice (const :tag "One key" multiple-choice)
                 (const :tag "Minibuffer completion" completing-read)))

(defcustom carrel-events-buffer-size 0
  "Most characters `carrel-events-buffer' keeps; 0 logs nothing, nil no limit.
Off by default: the log pretty-prints every message, which holds up
Emacs for tens of milliseconds on a folder of a thousand files.  It
takes effect when the server starts."
  :type '(choice (const :tag "No limit" nil) integer))

(defcustom carrel-locale nil
  "Language for the server's messages, such as \"fr\", or nil.
Nil takes it from the LC_ALL, LC_MESSAGES or LANG environment variables."
  :type '(choice (const :tag "From the environment" nil) string))

(defface carrel-section '((t :inherit bold))
  "Face of section headers in the Carrel tree.")

(defface carrel-folder '((t :inherit font-lock-function-name-face))
  "Face of folder, project and library titles in the Carrel tree.")

(defface carrel-count '((t :inherit shadow))
  "Face of each row's summary, such as \"3 files\", in the Carrel tree.")

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

;;;; Tables keyed by URI

(defun carrel--id-hash (key)
  "Return a hash code for KEY, a row's identity, unlike any sibling's."
  ;; Emacs 28 hashes a long string from a few of its words only: the
  ;; URIs of a thousand files in one folder fall into a few dozen
  ;; buckets, and every lookup compares a hundred of them.  Their last
  ;; characters, where siblings' names differ, are mixed in here.
  (if (stringp key)
      (let* ((end (length key))
             (hash (sxhash-equal key))
             (index (max 0 (- end 12))))
        (while (< index end)
          (setq hash (logxor (* (logand hash #xffffff) 31) (aref key index))
                index (1+ index)))
        hash)
    (sxhash-equal key)))

(define-hash-table-test 'carrel-id #'equal #'carrel--id-hash)

(defun carrel--id-table (&optional size)
  "Return an empty hash table keyed by rows' identities, for about SIZE rows."
  (make-hash-table :test 'carrel-id :size (or size 65)))

;;;; Connections

(defclass carrel--connection (jsonrpc-process-connection)
  ((root :initarg :root :reader carrel--root
         :documentation "The library directory this server serves.")
   (capabilities :initform nil :accessor carrel--capabilities
                 :documentation "The server's `capabilities.experimental.carrel'.")
   (seen :initform (make-hash-table :test 'carrel-id) :accessor carrel--seen
         :documentation "URIs named by changes since the last command was answered.")
   (closing :initform nil :accessor carrel--closing
            :documentation "Non-nil once `exit' was sent: write nothing more.")
   (starting :initform nil :accessor carrel--starting
             :documentation "Non-nil while the server started in the background
has not answered `initialize' yet.")
   (tree :initform nil :accessor carrel--tree
         :documentation "The buffer showing this library's tree.")
   (early-roots :initform nil :accessor carrel--early-roots
                :documentation "The roots asked for right behind `initialize',
until the binder asks for them: a `carrel--early'."))
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

(defun carrel--make-connection (root)
  "Start the server program for the library ROOT; return its connection.
Nothing is sent to it yet."
  (let* ((name (format "carrel %s" (file-name-nondirectory root)))
         (default-directory (file-name-as-directory root))
         (program (car carrel-server-command)))
    ;; Checked first: writing to a server that failed to start can kill
    ;; a batch Emacs with SIGPIPE.
    (unless (executable-find (if (string-match-p "/" program)
                                 (expand-file-name program)
                               program))
      (user-error "Carrel cannot find the server program “%s”; set `carrel-server-command'"
                  program))
    (condition-case err
        (make-instance
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
                              (delq conn carrel--connections))))
      (error (user-error "%s" (carrel--start-failure root (error-message-string err)))))))

(defun carrel--initialize-params (root)
  "Return the parameters of `initialize' for the library ROOT."
  (list :processId (emacs-pid)
        :locale (carrel--locale)
        :clientInfo (list :name "carrel.el")
        :rootUri (carrel--path-to-uri root)
        :workspaceFolders (vector (list :uri (carrel--path-to-uri root)
                                        :name (file-name-nondirectory root)))
        :capabilities (list :window (list :showMessage (make-hash-table))
                            ;; Links a rename breaks in an open buffer are
                            ;; fixed there, never on disk (`carrel--apply-edit').
                            :workspace (list :applyEdit t)
                            ;; The Carrel extensions this package handles.
                            :experimental (list :carrel (list :didChange t
                                                              :folderSymbols t)))))

(defun carrel--start-failure (root reason)
  "Return what to tell the writer when the server for ROOT fails to start.
REASON is what went wrong."
  (format "Carrel could not start “%s” in %s (%s); check `carrel-server-command'"
          (string-join carrel-server-command " ") root reason))

(defun carrel--start (root &optional roots-ahead)
  "Start a Carrel server for the library ROOT and return its connection.
With ROOTS-AHEAD, ask for the binder's roots right behind `initialize'."
  (let* ((root (directory-file-name (expand-file-name root)))
         (conn (carrel--make-connection root))
         (initialized nil))
    (condition-case err
        (progn
          (jsonrpc-async-request
           conn 'initialize (carrel--initialize-params root)
           :success-fn (lambda (result) (setq initialized (list :result result)))
           :error-fn (lambda (err) (setq initialized (list :error (plist-get err :message))))
           :timeout-fn (lambda () (setq initialized (list :error "Timed out"))))
          (when roots-ahead
            (carrel--ask-roots-early conn))
          (carrel--wait-for conn (lambda () initialized))
          (unless (eq (car initialized) :result)
            (user-error "%s" (or (cadr initialized) "The Carrel server stopped")))
          (setf (carrel--capabilities conn)
                (map-nested-elt (cadr initialized) '(:capabilities :experimental :carrel)))
          (jsonrpc-notify conn 'initialized (make-hash-table)))
      (error
       (ignore-errors (jsonrpc-shutdown conn t))
       (user-error "%s" (carrel--start-failure
                         root (if (eq (car err) 'jsonrpc-error)
                                  (carrel--error-message err)
                                (error-message-string err))))))
    (push conn carrel--connections)
    (carrel--attach-all conn)
    conn))

(defun carrel--start-async (root then &optional roots-ahead)
  "Start a Carrel server for the library ROOT without waiting for it.
Return its connection at once; `carrel--ready' waits for it.  Once
the server has answered `initialize', call THEN with the connection.
When it cannot start, say why as opening would, once.  With
ROOTS-AHEAD, ask for the binder's roots right behind `initialize'."
  (let* ((root (directory-file-name (expand-file-name root)))
         (conn (carrel--make-connection root))
         (failed (lambda (reason)
                   ;; Later, not inside the sentinel that may be calling.
                   (run-at-time
                    0 nil
                    (lambda ()
                      (setf (carrel--starting conn) nil)
                      (setq carrel--connections (delq conn carrel--connections))
                      (ignore-errors (jsonrpc-shutdown conn t))
                      (message "%s" (carrel--start-failure root reason)))))))
    (setf (carrel--starting conn) t)
    ;; Listed at once, so that opening meanwhile waits for this server
    ;; instead of starting another.
    (push conn carrel--connections)
    (jsonrpc-async-request
     conn 'initialize (carrel--initialize-params root)
     :success-fn
     (lambda (result)
       (setf (carrel--capabilities conn)
             (map-nested-elt result '(:capabilities :experimental :carrel)))
       (jsonrpc-notify conn 'initialized (make-hash-table))
       (setf (carrel--starting conn) nil)
       (carrel--attach-all conn)
       ;; Inside the process filter: an error escaping would leave the
       ;; rest of the chunk unread.
       (condition-case err
           (funcall then conn)
         (error (message "Carrel: %s" (error-message-string err)))))
     :error-fn (lambda (err) (funcall failed (or (plist-get err :message) "The Carrel server stopped")))
     :timeout-fn (lambda () (funcall failed "Timed out")))
    (when roots-ahead
      (carrel--ask-roots-early conn))
    conn))

(defun carrel--wait-for (conn done)
  "Read CONN's messages until DONE gives non-nil, or until its server's end."
  ;; Read in large pieces: the roots of a big library are a long message.
  (let ((read-process-output-max (max read-process-output-max (* 1024 1024))))
    (while (and (not (funcall done)) (jsonrpc-running-p conn))
      ;; The server's process, not any: waiting on any process returns
      ;; about 10 ms after the answer is read.
      (accept-process-output (jsonrpc--process conn) 0.05))))

;;;; The roots, asked for early

;; The server handles messages in the order they come, so a cold open can
;; ask for the roots right behind `initialize', before reading its answer:
;; the roots are then on their way while Emacs reads initialize's, and the
;; first view waits for no round trip of its own.  Only a request that
;; changes nothing may go so early.

(cl-defstruct (carrel--early (:constructor carrel--early-make) (:copier nil))
  "The roots asked for ahead, until the binder takes them."
  (outcome nil :documentation "(:result ROOTS) or (:error MESSAGE), once answered.")
  (stale nil :documentation "Non-nil once a change came after the answer.")
  (taker nil :documentation "What takes the outcome when it comes, once asked for."))

(defun carrel--ask-roots-early (conn)
  "Ask CONN's server for the binder's roots, to be taken later."
  (let ((early (carrel--early-make)))
    (setf (carrel--early-roots conn) early)
    (cl-flet ((settle (outcome)
                (setf (carrel--early-outcome early) outcome)
                (when (carrel--early-taker early)
                  (funcall (carrel--early-taker early) outcome))))
      (jsonrpc-async-request
       conn 'carrel/tree (list :depth 1)
       :success-fn (lambda (roots) (settle (list :result roots)))
       :error-fn (lambda (err) (settle (list :error (plist-get err :message))))
       :timeout-fn (lambda () (settle (list :error "Timed out")))))))

(defun carrel--early-roots-outdated (conn)
  "Mark the roots CONN's server answered ahead as outdated by a change."
  (let ((early (carrel--early-roots conn)))
    (when (and early (carrel--early-outcome early))
      (setf (carrel--early-stale early) t))))

(defun carrel--take-early-roots (conn taker)
  "Give TAKER the roots CONN's server was asked for ahead, if they still hold.
TAKER is called with (:result ROOTS) or (:error MESSAGE), at once if
they are in, else when they come.  Return nil when there are none to
take: nothing asked ahead, already taken, or outdated by a change."
  (let ((early (carrel--early-roots conn)))
    (setf (carrel--early-roots conn) nil)
    (when (and early (not (carrel--early-stale early)))
      (if (carrel--early-outcome early)
          (funcall taker (carrel--early-outcome early))
        (setf (carrel--early-taker early) taker))
      t)))

(defun carrel--request-roots (conn)
  "Return the roots of CONN's binder: those asked for ahead, else asked now."
  (let ((outcome nil))
    (if (not (carrel--take-early-roots conn (lambda (answer) (setq outcome answer))))
        (carrel--request conn 'carrel/tree (list :depth 1))
      (carrel--wait-for conn (lambda () outcome))
      (pcase outcome
        (`(:result ,roots) roots)
        (`(:error ,message) (user-error "%s" (or message "The Carrel server refused")))
        (_ (user-error "The Carrel server stopped"))))))

(defun carrel--ready (conn)
  "Wait until CONN's server has started; return CONN, or nil if it stopped."
  (while (and (carrel--starting conn) (jsonrpc-running-p conn))
    (accept-process-output (jsonrpc--process conn) 0.05))
  (and (jsonrpc-running-p conn) (not (carrel--starting conn)) conn))

(defun carrel--guess-root ()
  "Return the library that `carrel' should open here, or nil when unsure.
That is an open library around the current directory, else
`carrel-library-directory', else the folder holding the enclosing
Carrel project, else the nearest folder around the current
directory that holds projects, as the command line finds it."
  (let* ((dir (expand-file-name default-directory))
         (conn (carrel--connection-for dir))
         (project (locate-dominating-file dir ".carrel/project.json")))
    (cond
     (conn (carrel--root conn))
     (carrel-library-directory (expand-file-name carrel-library-directory))
     (project (file-name-directory (directory-file-name project)))
     (t (let ((holder (locate-dominating-file dir #'carrel--holds-projects-p)))
          (and holder (not (carrel--system-folder-p holder)) holder))))))

(defun carrel--system-folder-p (dir)
  "Return non-nil when DIR is a folder a library is never guessed at.
That is the root, a folder directly in it, the home folder, the folder
holding it and the folders beside it, as the command line decides:
opening one would read a whole system or a whole home."
  (let* ((dir (directory-file-name (expand-file-name dir)))
         (home (directory-file-name (expand-file-name "~")))
         (home-parent (directory-file-name (file-name-directory home))))
    (or (<= (length (split-string dir "/" t)) 1)
        (member dir (list home home-parent))
        (equal (directory-file-name (file-name-directory dir)) home-parent))))

(defun carrel--holds-projects-p (dir)
  "Return non-nil when a Carrel project sits directly in DIR."
  (and (file-directory-p dir)
       (file-readable-p dir)
       (seq-some (lambda (child)
                   (file-exists-p (expand-file-name ".carrel/project.json" child)))
                 (directory-files dir t directory-files-no-dot-files-regexp t))))

(defun carrel--read-root ()
  "Ask for the folder of the writer's projects.
Offer the version-control root around the current directory, else
the current directory."
  (let ((vc (project-current nil default-directory)))
    (read-directory-name "Carrel library: "
                         (if vc (project-root vc) default-directory))))

(defun carrel--ensure-connection (root &optional roots-ahead)
  "Return a live connection for the library around ROOT; start one if needed.
Offer to create ROOT when it does not exist yet.  With ROOTS-AHEAD, a
server started asks for the binder's roots right behind `initialize'."
  (or (let ((conn (carrel--connection-for root)))
        (and conn (carrel--ready conn)))
      (progn
        (unless (file-directory-p root)
          (if (y-or-n-p (format "Create the library %s? " (abbreviate-file-name root)))
              (make-directory root t)
            (user-error "No library opened")))
        (carrel--start root roots-ahead))))

(defun carrel--file-connection ()
  "Return the connection for the current buffer's file, or signal a user error."
  (unless buffer-file-name
    (user-error "This buffer is not visiting a file"))
  (or (let ((conn (carrel--connection-for buffer-file-name)))
        (and conn (carrel--ready conn)))
      (let ((default-directory (file-name-directory buffer-file-name)))
        (carrel--ensure-connection (or (carrel--guess-root) (carrel--read-root))))))

(defun carrel-shutdown (conn)
  "Stop the Carrel server of connection CONN."
  (interactive (list (or (carrel--tree-connection t)
                         (car carrel--connections)
                         (user-error "No Carrel server is running"))))
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
  (car (carrel--request-all conn (list (list method params)) timeout)))

(defun carrel--request-all (conn questions &optional timeout answered)
  "Ask CONN's server all QUESTIONS at once; return their results in order.
Each question is (METHOD PARAMS).  Every question is sent before the
first answer is awaited, so N of them cost one wait, not N.  Once
every answer is in, a server error becomes a `user-error' with the
server's message.  TIMEOUT is in seconds.  ANSWERED, when given, is
called as each answer is read, before any message read after it."
  ;; Not `jsonrpc-request': it leaves its wait by throwing from inside
  ;; the process filter, which abandons every message that came in the
  ;; same chunk after the reply (the `carrel/didChange' a command sends
  ;; right after answering) until the server happens to write again.
  ;; Here the reply only sets a flag, so the filter reads the whole chunk.
  ;; The server answers about the text the writer sees, and a rename's
  ;; edits must be made on it.
  (carrel--flush-documents)
  (let* ((outcomes (make-vector (length questions) nil))
         (index 0))
    (dolist (question questions)
      (let ((slot index))
        (jsonrpc-async-request
         conn (car question) (cadr question)
         :success-fn (lambda (result)
                       (when answered (funcall answered))
                       (aset outcomes slot (list :result result)))
         :error-fn (lambda (err)
                     (when answered (funcall answered))
                     (aset outcomes slot (list :error (plist-get err :message))))
         :timeout-fn (lambda () (aset outcomes slot (list :error "Timed out")))
         :timeout (or timeout jsonrpc-default-request-timeout)))
      (setq index (1+ index)))
    ;; Read in large pieces while waiting: a folder of a thousand is
    ;; half a megabyte, a hundred wake-ups at the default 4 KiB.
    (let ((read-process-output-max (max read-process-output-max (* 1024 1024))))
      (while (not (seq-every-p #'identity outcomes))
        (unless (jsonrpc-running-p conn)
          (cl-loop for slot below (length outcomes)
                   unless (aref outcomes slot)
                   do (aset outcomes slot (list :error "The Carrel server stopped"))))
        ;; The server's process, not any: waiting on any process returns
        ;; about 10 ms after the answer is read, for every request.
        (accept-process-output (jsonrpc--process conn) 0.05)))
    (let ((refused (seq-find (lambda (outcome) (eq (car outcome) :error)) outcomes)))
      (when refused
        (user-error "%s" (or (cadr refused) "The Carrel server refused"))))
    (mapcar #'cadr outcomes)))

(defun carrel--execute (conn command &rest arguments)
  "Run the server COMMAND with the plist ARGUMENTS through CONN.
What CONN has seen is forgotten as the answer is read, so that
`carrel--settle' waits for the command's own change, the first one
after its answer, not one told while it ran."
  (carrel--execute-params conn (list :command command :arguments (vector arguments))))

(defun carrel--execute-params (conn params)
  "Send CONN's server `workspace/executeCommand' with PARAMS; return the result.
What CONN has seen is forgotten as the answer is read."
  (car (carrel--request-all conn (list (list 'workspace/executeCommand params))
                            carrel--command-timeout
                            (lambda () (clrhash (carrel--seen conn))))))

;;;; Messages from the server

(defvar carrel--choice-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map minibuffer-local-must-match-map)
    (define-key map " " #'self-insert-command)
    map)
  "Keymap of a Carrel picker: SPC inserts a space instead of completing.")

(defun carrel--read-choice (prompt choices &optional default)
  "Read one of CHOICES with PROMPT, listed in their given order.
CHOICES is a list of strings or an alist keyed by strings; DEFAULT
is what RET on empty input gives.  SPC types a space, since
destinations and titles have spaces in them."
  (let ((minibuffer-local-must-match-map carrel--choice-map))
    (completing-read prompt
                     (lambda (string predicate action)
                       (if (eq action 'metadata)
                           '(metadata (display-sort-function . identity)
                                      (cycle-sort-function . identity))
                         (complete-with-action action choices string predicate)))
                     nil t nil nil default)))

(defun carrel--handle-request (_conn method params)
  "Answer the server's request METHOD with PARAMS."
  (pcase method
    ('window/showMessageRequest (carrel--confirm params))
    ('workspace/applyEdit (carrel--apply-edit params))
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
    ;; The server puts the harmless action first: a bare RET answers it.
    (let ((answer (carrel--read-choice (concat question " ") titles (car titles))))
      (and (member answer titles) answer)))
   (t
    ;; The server puts the harmless action first: a bare RET answers it,
    ;; as in every other editor.
    (let ((taken nil) (choices (list (list ?\r (car titles)))))
      (dolist (title (cdr titles))
        ;; Prefer a word's initial: "Delete and Don't Ask Again" gets `a'.
        (let ((key (seq-find (lambda (c) (and (<= ?a c ?z) (not (memq c taken))))
                             (concat (mapconcat (lambda (word) (substring word 0 1))
                                                (split-string (downcase title)) "")
                                     (downcase title)
                                     "123456789"))))
          (push key taken)
          (push (list key title) choices)))
      (carrel--read-key-choice question (nreverse choices))))))

(defun carrel--read-key-choice (question choices)
  "Ask QUESTION; return the title of the one of CHOICES whose key is typed.
CHOICES are (KEY TITLE) lists.  Unlike `read-multiple-choice', the
server's titles are shown whole, each after its key, RET can be a
key, and a letter answers in either case."
  (let ((prompt (format "%s (%s) " question
                        (mapconcat (lambda (choice)
                                     (format "%s %s" (key-description (vector (car choice)))
                                             (cadr choice)))
                                   choices ", ")))
        (answer nil))
    (while (not answer)
      (let ((key (read-key prompt)))
        (when (eq key ?\C-g) (signal 'quit nil))
        (setq answer (cadr (or (assq (if (eq key 'return) ?\r key) choices)
                               (and (characterp key) (assq (downcase key) choices)))))
        (unless answer (ding))))
    answer))

(defvar carrel--progress-titles nil
  "The title of each work-done progress under way, keyed by its token.")

(defun carrel--show-progress (token value)
  "Show the server's progress VALUE under TOKEN in the echo area.
A compile's, in the server's words; the report that follows it is
what stays in *Messages*."
  (let ((kind (plist-get value :kind))
        (message-log-max nil))
    (pcase kind
      ("begin" (setf (alist-get token carrel--progress-titles nil nil #'equal)
                     (plist-get value :title)))
      ("end" (setf (alist-get token carrel--progress-titles nil t #'equal) nil)))
    (unless (equal kind "end")
      (message "%s%s"
               (string-join (delq nil (list (alist-get token carrel--progress-titles nil nil #'equal)
                                            (plist-get value :message)))
                            ": ")
               (if (plist-get value :percentage)
                   (format " (%d%%)" (plist-get value :percentage))
                 "")))))

(defun carrel--handle-notification (conn method params)
  "Act on the server's notification METHOD with PARAMS from CONN."
  ;; Runs inside the process filter: an error escaping from here would
  ;; leave the rest of the chunk unread, so it is only reported.
  (condition-case err
      (pcase method
        ('carrel/didChange
         ;; The change may alter the rows of roots answered ahead: the
         ;; binder asks for them itself.
         (carrel--early-roots-outdated conn)
         (let ((changes (append (plist-get params :changes) nil)))
           (dolist (change changes)
             (puthash (plist-get change :uri) t (carrel--seen conn))
             (when (plist-get change :oldUri)
               (puthash (plist-get change :oldUri) t (carrel--seen conn))))
           (puthash :any t (carrel--seen conn))
           ;; The binder is patched even if a buffer could not follow.
           (condition-case err
               (carrel--follow-changes changes)
             (error (message "Carrel: %s" (error-message-string err))))
           (let ((buffer (carrel--tree-buffer conn))
                 (updated (append (plist-get params :updated) nil))
                 ;; A vector, even empty, when present: absent (too many
                 ;; rows to place) is not the same as none.
                 (placed (plist-get params :placed)))
             (when (buffer-live-p buffer)
               (with-current-buffer buffer
                 (carrel--later (lambda () (carrel--apply-change changes updated placed))))))))
        ('window/showMessage
         ;; A command's report comes after its change: once it is in,
         ;; what the command changed has arrived too.
         (puthash :report t (carrel--seen conn))
         (message "%s" (plist-get params :message)))
        ('textDocument/publishDiagnostics (carrel--publish-diagnostics params))
        ('$/progress (carrel--show-progress (plist-get params :token) (plist-get params :value))))
    (error (message "Carrel: %s" (error-message-string err)))))

;;;; Buffers follow their files

(defun carrel--file-buffers-under (path)
  "Return the buffers visiting PATH or a file inside it."
  (seq-filter (lambda (buffer)
                (let ((file (buffer-file-name buffer)))
                  (and file (carrel--path-under-p (expand-file-name file) path))))
              (buffer-list)))

(defun carrel--follow-changes (change-list)
  "Make file buffers follow CHANGE-LIST, as sent by `carrel/didChange'."
  (let ((notes nil))
    ;; Only moves and deletes are decoded: a burst of new files costs nothing here.
    (dolist (change change-list)
      (pcase (plist-get change :type)
        ("moved" (carrel--move-buffers (carrel--uri-to-path (plist-get change :oldUri))
                                       (carrel--uri-to-path (plist-get change :uri))))
        ("deleted" (setq notes (append notes (carrel--close-buffers
                                              (carrel--uri-to-path (plist-get change :uri))))))))
    (when notes
      (message "%s" (string-join notes " ")))))

(defun carrel--move-buffers (old new)
  "Make buffers visiting OLD, or files inside it, visit the same under NEW.
A move into the Trash is followed too, so that saving writes into
the Trash and never brings the old file back beside it."
  (dolist (buffer (carrel--file-buffers-under old))
    (with-current-buffer buffer
      (let ((file (concat new (substring (expand-file-name buffer-file-name)
                                         (length (directory-file-name old))))))
        ;; ALONG-WITH-FILE keeps the modified flag, undo and the file's
        ;; modtime, so saving later does not ask about a changed file.
        (set-visited-file-name file t t)
        (carrel--reopen-document)))))

(defun carrel--close-buffers (path)
  "Kill unmodified buffers of PATH and files inside it.
Return a note for each modified buffer, which is kept."
  (let ((notes nil))
    (dolist (buffer (carrel--file-buffers-under path))
      (if (buffer-modified-p buffer)
          (let ((note (format (concat "“%s” no longer exists on disk; its unsaved changes stay in its buffer.  "
                                      "Save it with C-x C-s or C-x C-w to keep them.")
                              (file-name-nondirectory (buffer-file-name buffer)))))
            (carrel--keep-note buffer note)
            (push note notes))
        (kill-buffer buffer)))
    (nreverse notes)))

(defun carrel--keep-note (buffer note)
  "Show NOTE at the top of BUFFER until it is saved.
The echo area is overwritten by the next message, and the writer
must not miss that a buffer's file is gone."
  (with-current-buffer buffer
    (setq-local header-line-format (propertize note 'face 'warning))
    (add-hook 'after-save-hook #'carrel--drop-note nil t)))

(defun carrel--drop-note ()
  "Remove the note `carrel--keep-note' put at the top of this buffer."
  (kill-local-variable 'header-line-format)
  (remove-hook 'after-save-hook #'carrel--drop-note t))

;;;; The rows

(defvar-local carrel--conn nil
  "The connection whose tree this buffer shows.")

(defvar-local carrel--rows nil
  "Hash table from a row's identity to its node, without children.")

(defvar-local carrel--kids nil
  "Hash table from a fetched row's identity to its children's identities.
A row that is absent here was never fetched, or was forgotten.")

(defvar-local carrel--parents nil
  "Hash table from a row's identity to its parent's identity.")

(defvar-local carrel--expanded nil
  "Hash table of the identities of expanded rows.
Kept by identity, so expansion survives every refetch.")

(defvar-local carrel--root-ids nil
  "Identities of the rows at the top of the tree.")

(defvar-local carrel--expanding-all nil
  "Identities below which rows are expanded as they arrive.")

(defvar-local carrel--pending 0
  "How many tree fetches are under way.")

(defvar-local carrel--in-flight nil
  "Hash table of the identities whose fetch is under way.")

(defvar-local carrel--waiters nil
  "Hash table from an identity to the functions to call when its fetch is in.")

(defvar-local carrel--gathering nil
  "Hash table from a folder fetched ahead in pages to its gathering.")

(defvar-local carrel--projects-seen nil
  "Hash table of the identities of every project this tree has held.
Never emptied: a project the writer collapsed stays collapsed when
its library is fetched again.")

(defvar-local carrel--projects-new nil
  "Projects held for the first time that have not been opened yet.")

(defvar-local carrel--first-view nil
  "Whether this tree holds its first view: nil, `loading' or `held'.
A tree filled in the background by `carrel-preload' is `loading'
until every row of its first view is in.")

(defvar-local carrel--ahead-looked nil
  "Non-nil when the rows shown were looked at and none was to fetch ahead.
Cleared when a listing comes in or a folder is opened, so that the
rows shown are walked again only then, not after every change.")

(defun carrel--id (node)
  "Return NODE's identity: its `id', else its `uri'."
  (or (plist-get node :id) (plist-get node :uri)))

(defun carrel--node (id)
  "Return the node of the row ID."
  (gethash id carrel--rows))

(defun carrel--kind (id)
  "Return the kind of the row ID."
  (plist-get (carrel--node id) :kind))

(defun carrel--bare (node)
  "Return NODE without its children."
  ;; Most rows are files, which come without: not copying them spares
  ;; Emacs a garbage collection per listing of a thousand.
  (if (plist-member node :children)
      (cl-loop for (key value) on node by #'cddr
               unless (eq key :children) append (list key value))
    node))

(defun carrel--loaded-p (id)
  "Return non-nil if the children of the row ID are held, even none."
  (not (eq (gethash id carrel--kids :absent) :absent)))

(defun carrel--container-p (node)
  "Return non-nil if NODE can hold other nodes."
  (not (equal (plist-get node :kind) "file")))

(defun carrel--under-id-p (id ancestor)
  "Return non-nil if the row ID is ANCESTOR or lies below it."
  (cl-loop for current = id then (gethash current carrel--parents)
           while current
           thereis (equal current ancestor)))

(defun carrel--store (node parent &optional children-kept)
  "Keep NODE, a child of the row PARENT, and the children it came with.
Return NODE's identity.  Rows no longer listed are forgotten.  With
CHILDREN-KEPT, the children's rows were kept already, by
`carrel--store-in-slices'."
  (let ((id (carrel--id node))
        (children (plist-get node :children)))
    (puthash id (carrel--bare node) carrel--rows)
    (when parent (puthash id parent carrel--parents))
    (when (and (equal (plist-get node :kind) "project")
               (not (gethash id carrel--projects-seen)))
      (puthash id t carrel--projects-seen)
      (push id carrel--projects-new))
    (when (and carrel--expanding-all (carrel--expands-all-p id node))
      (puthash id t carrel--expanded))
    (when children
      (let ((ids (if children-kept
                     (mapcar #'carrel--id children)
                   (mapcar (lambda (child) (carrel--store child id)) children)))
            (old-ids (gethash id carrel--kids)))
        ;; A set, not `member': a folder of thousands would cost their
        ;; square.  None for a listing held for the first time.
        (when old-ids
          (let ((kept (carrel--id-table (length children))))
            (dolist (kid ids) (puthash kid t kept))
            (dolist (old old-ids)
              (unless (gethash old kept) (carrel--forget old)))))
        (puthash id ids carrel--kids)))
    id))

(defconst carrel--store-slice 250
  "Most rows of a listing kept in one piece of the tree's queue.")

(defun carrel--store-in-slices (buffer node fetch-id)
  "Queue the keeping of NODE's children in the tree BUFFER, a slice at a time.
NODE is the answer to the fetch of the row FETCH-ID.  Return non-nil
if it had so many children that they were queued; `carrel--store'
then keeps NODE itself with CHILDREN-KEPT."
  ;; Parsed at once by jsonrpc.el, a listing of a thousand is kept in
  ;; pieces, so Emacs answers keys and timers in between: a folder
  ;; fetched ahead never holds it up for the whole listing.
  (let ((children (plist-get node :children)))
    (when (and (vectorp children) (> (length children) carrel--store-slice)
               (buffer-live-p buffer))
      (with-current-buffer buffer
        (cl-loop for start from 0 below (length children) by carrel--store-slice
                 do (let ((start start)
                          (end (min (length children) (+ start carrel--store-slice))))
                      (carrel--later
                       (lambda ()
                         (when (gethash fetch-id carrel--rows)
                           (cl-loop for index from start below end
                                    do (carrel--store (aref children index) fetch-id))))))))
      t)))

(defun carrel--expands-all-p (id node)
  "Return non-nil if expanding all opens the row ID, whose node is NODE."
  (and (carrel--container-p node)
       ;; "All" lists again the files its project's folders hold: opened,
       ;; it would show every file twice.
       (not (equal (plist-get node :role) "all"))
       (seq-some (lambda (top) (carrel--under-id-p id top)) carrel--expanding-all)))

(defun carrel--forget (id)
  "Forget the row ID and every row below it."
  (carrel--forget-below id)
  (remhash id carrel--rows)
  (remhash id carrel--parents))

(defun carrel--forget-below (id)
  "Forget the rows below ID, so that it is fetched again when shown."
  ;; A closed folder's listing forgotten, as when a change may have
  ;; reordered it, is fetched ahead again.
  (when (carrel--loaded-p id)
    (setq carrel--ahead-looked nil))
  (dolist (kid (gethash id carrel--kids))
    (carrel--forget kid))
  (remhash id carrel--kids))

(defun carrel--visible-p (id)
  "Return non-nil if every row above ID is expanded."
  (cl-loop for parent = (gethash id carrel--parents) then (gethash parent carrel--parents)
           while parent
           always (gethash parent carrel--expanded)))

(defun carrel--fetch-spec (id)
  "Return (ID URI DEPTH): what to ask the server to show the row ID's children.
A section's rows come with its project, so that is what is fetched."
  (let ((node (carrel--node id)))
    (pcase (plist-get node :kind)
      ("section" (carrel--fetch-spec (gethash id carrel--parents)))
      ("project" (list id (plist-get node :uri) 2))
      ("file" nil)
      (_ (and (plist-get node :uri) (list id (plist-get node :uri) 1))))))

(defun carrel--fetch (id)
  "Fetch the row ID with its children now, and keep them."
  (carrel--fetch-all (list id)))

(defun carrel--fetch-all (ids)
  "Fetch the rows IDS with their children now, all at once, and keep them."
  (let* ((specs (delete-dups (delq nil (mapcar #'carrel--fetch-spec ids))))
         (answers (carrel--request-all
                   carrel--conn
                   (mapcar (pcase-lambda (`(,_ ,uri ,depth))
                             (list 'carrel/tree (list :uri uri :depth depth)))
                           specs))))
    (cl-mapc (lambda (spec nodes)
               (let ((fetch-id (car spec)))
                 ;; An answer before it may have dropped this row.
                 (when (and (> (length nodes) 0) (gethash fetch-id carrel--rows))
                   (carrel--store (aref nodes 0) (gethash fetch-id carrel--parents)))))
             specs answers)))

(defun carrel--fetch-async (specs &optional again then paged)
  "Fetch each of SPECS, as `carrel--fetch-spec' gives, without waiting.
A row already being fetched is not asked twice at once: with
AGAIN, for a change may have come after that question, it is
asked once more when the answer is in.  The tree is drawn again
once the last answer is in.  THEN, if given, is called with no
argument in the tree buffer once for each of SPECS, when its
answer is kept or its fetch failed.  With PAGED, a folder of more
than `carrel--fetch-page' rows is asked for in pages, by
`carrel--gather'."
  (let ((buffer (current-buffer))
        (conn carrel--conn))
    (dolist (spec specs)
      (pcase-let ((`(,fetch-id ,uri ,depth) spec))
        (when (and then (not (carrel--closing conn)))
          (push then (gethash fetch-id carrel--waiters)))
        (cond
         ((carrel--closing conn))
         ;; One question at a time per row, so a burst of changes costs
         ;; two listings of a folder, not one per change.
         ((gethash fetch-id carrel--in-flight)
          (when again (puthash fetch-id spec carrel--in-flight)))
         ((and paged (carrel--paged-p fetch-id depth))
          (puthash fetch-id t carrel--in-flight)
          (cl-incf carrel--pending)
          (carrel--gather buffer conn fetch-id uri))
         (t
          (puthash fetch-id t carrel--in-flight)
          (cl-incf carrel--pending)
          (jsonrpc-async-request
           conn 'carrel/tree (list :uri uri :depth depth)
           :success-fn
           (lambda (nodes)
             (let ((sliced (and (> (length nodes) 0)
                                (carrel--store-in-slices buffer (aref nodes 0) fetch-id))))
               (carrel--fetched-later
                buffer (lambda ()
                         (when (and (> (length nodes) 0)
                                    (gethash fetch-id carrel--rows))
                           (carrel--store (aref nodes 0)
                                          (gethash fetch-id carrel--parents)
                                          sliced)))
                fetch-id)))
           ;; A folder that vanished meanwhile leaves with its parent's listing.
           :error-fn (lambda (_err) (carrel--fetched-later buffer #'ignore fetch-id))
           :timeout-fn (lambda () (carrel--fetched-later buffer #'ignore fetch-id)))))))))

;;;; Listings fetched ahead in pages

(defconst carrel--fetch-page 200
  "Most rows of a listing fetched ahead that one message brings.
A listing of a thousand rows is a third of a megabyte of JSON,
which Emacs parses in one piece for 80 ms and more; a page of two
hundred is parsed in its own moment.")

(defconst carrel--most-pages 20
  "Most pages of one listing asked for at once.
A folder fetched ahead holds at most `carrel-fetch-ahead' rows when
counted; one that grew past this many pages since comes with its
last page holding all the rest, rather than as a flood of questions.")

(cl-defstruct (carrel--gathering (:constructor carrel--gathering-make (uri)) (:copier nil))
  "The pages of one folder's listing fetched ahead, while they come in.
ROUND is the asking of every page under way; STORED every row kept
since the first page, should a change make the pages be gathered
again."
  uri
  (round nil) (stored nil)
  (stale nil) (shown nil))

(cl-defstruct (carrel--round (:constructor carrel--round-make (size)) (:copier nil))
  "One asking of every page of a listing, SIZE rows a page.
COUNT is how many rows the first page said the listing has, PAGES
the identities of each page's rows by its place (t until it comes),
ARRIVED how many pages came, and SHOWN how many from the first are
in the listing drawn.  An answer is kept only by the round it was
asked in: a round given up for a newer one is ignored."
  size (count nil) (pages nil) (arrived 0) (shown 0))

(defun carrel--paged-p (id depth)
  "Return non-nil if the listing of the row ID, fetched at DEPTH, comes in pages."
  (let ((node (carrel--node id)))
    (and (eql depth 1)
         (> (+ (or (plist-get node :fileCount) 0) (or (plist-get node :folderCount) 0))
            carrel--fetch-page))))

(defun carrel--gather (buffer conn id uri)
  "Fetch the listing of the row ID, at URI, in pages, in the tree BUFFER.
CONN is the server.  Each page's rows are kept as it comes, and the
listing once every page is in."
  (let ((gathering (carrel--gathering-make uri)))
    (puthash id gathering carrel--gathering)
    (carrel--gather-again buffer conn id gathering)))

(defun carrel--gather-again (buffer conn id gathering)
  "Start a new round of GATHERING, the row ID's, from its first page.
BUFFER is the tree, CONN the server."
  (setf (carrel--gathering-round gathering) (carrel--round-make carrel--fetch-page)
        (carrel--gathering-stale gathering) nil)
  (carrel--ask-page buffer conn id 0))

(defun carrel--ask-page (buffer conn id from)
  "Ask CONN for the page of the row ID's listing starting at FROM, for BUFFER.
The page is of the round under way; the last one of a round that
could not ask for every page holds all the rest."
  (let* ((gathering (gethash id carrel--gathering))
         (round (carrel--gathering-round gathering))
         (size (carrel--round-size round))
         (index (/ from size))
         (count (carrel--round-count round))
         (last (and (carrel--round-pages round)
                    (= index (1- (length (carrel--round-pages round))))))
         (whole (or (not last) (not (natnump count)) (<= (- count from) size))))
    (jsonrpc-async-request
     conn 'carrel/tree
     (append (list :uri (carrel--gathering-uri gathering) :depth 1 :from from)
             (and whole (list :count size)))
     :success-fn
     (lambda (nodes)
       (when (buffer-live-p buffer)
         (with-current-buffer buffer
           (carrel--later
            (lambda () (carrel--gathered buffer conn id gathering round index nodes))))))
     :error-fn (lambda (_err) (carrel--gathering-failed buffer id gathering round))
     :timeout-fn (lambda () (carrel--gathering-failed buffer id gathering round)))))

(defun carrel--round-current-p (id gathering round)
  "Return non-nil if ROUND is the one under way of GATHERING, the row ID's."
  (and (eq (gethash id carrel--gathering) gathering)
       (eq (carrel--gathering-round gathering) round)))

(defun carrel--gathering-failed (buffer id gathering round)
  "End GATHERING, the row ID's in BUFFER, as a failed fetch ends.
Only a page of the ROUND under way ends it."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (when (carrel--round-current-p id gathering round)
        (remhash id carrel--gathering)
        (carrel--fetched-later buffer #'ignore id)))))

(defun carrel--gathered (buffer conn id gathering round index nodes)
  "Keep NODES, the page at INDEX of the row ID's listing in GATHERING.
ROUND is the round it was asked in; BUFFER is the tree, CONN the
server.  The first page of a round asks for all the others."
  (let ((node (and (> (length nodes) 0) (aref nodes 0))))
    (cond
     ;; Asked in a round given up, or for a gathering ended.
     ((not (carrel--round-current-p id gathering round)))
     ((or (null node) (not (gethash id carrel--rows)) (carrel--closing conn))
      (remhash id carrel--gathering)
      (carrel--fetched buffer #'ignore id))
     ((or (carrel--gathering-stale gathering)
          ;; The listing changed under the round, told or not yet.
          (and (carrel--round-count round)
               (not (eql (plist-get node :childCount) (carrel--round-count round)))))
      ;; A change between two pages may have shifted the listing: the
      ;; pages held could lack a row or hold one twice.  What is shown of
      ;; them stays until the whole listing replaces it.
      (setf (carrel--gathering-shown gathering) (and (carrel--gathering-shown gathering) 'stale))
      (carrel--gather-again buffer conn id gathering))
     (t
      (let* ((children (or (plist-get node :children) []))
             ;; Kept now, in this page's own slice: rows the server
             ;; updates meanwhile are updated as any row held.
             (ids (cl-loop for child across children collect (carrel--store child id))))
        (setf (carrel--gathering-stored gathering) (append ids (carrel--gathering-stored gathering)))
        (unless (carrel--round-pages round)
          (carrel--ask-other-pages buffer conn id round (plist-get node :childCount) ids))
        (let ((pages (carrel--round-pages round)))
          (when (and (< index (length pages)) (eq (aref pages index) t))
            (aset pages index ids)
            (cl-incf (carrel--round-arrived round)))
          (when (eq (carrel--gathering-shown gathering) t)
            (carrel--show-more id round)
            (carrel--render-soon))
          (when (= (carrel--round-arrived round) (length pages))
            (carrel--gathering-done buffer id gathering node))))))))

(defun carrel--ask-other-pages (buffer conn id round child-count first)
  "Ask at once for every page of ROUND after the first, FIRST its rows.
CHILD-COUNT is how many rows the first page said the row ID's
listing has.  BUFFER is the tree, CONN the server."
  (let* ((size (carrel--round-size round))
         (count (if (natnump child-count) child-count 0))
         ;; A first page with no rows ends the listing, whatever it says.
         (wanted (if first (max 1 (ceiling count size)) 1))
         (pages (make-vector (min wanted carrel--most-pages) t)))
    (setf (carrel--round-count round) child-count
          (carrel--round-pages round) pages)
    (cl-loop for index from 1 below (length pages)
             do (carrel--ask-page buffer conn id (* index size)))))

(defun carrel--show-more (id round)
  "Add to the listing of the row ID drawn the pages of ROUND next in turn."
  (let ((pages (carrel--round-pages round))
        (more nil))
    (while (and (< (carrel--round-shown round) (length pages))
                (listp (aref pages (carrel--round-shown round))))
      (setq more (append more (aref pages (carrel--round-shown round))))
      (cl-incf (carrel--round-shown round)))
    (when more
      (puthash id (append (gethash id carrel--kids) more) carrel--kids))))

(defun carrel--gathering-done (buffer id gathering node)
  "Keep in BUFFER the listing of the row ID that GATHERING has, NODE its row."
  (remhash id carrel--gathering)
  (let* ((ids (apply #'append (append (carrel--round-pages (carrel--gathering-round gathering)) nil)))
         (listed (carrel--id-table (length ids))))
    (dolist (kid ids) (puthash kid t listed))
    (carrel--fetched
     buffer
     (lambda ()
       (puthash id (carrel--bare node) carrel--rows)
       ;; Rows of pages gathered before a change, or shown then, that
       ;; the listing no longer has.
       (dolist (old (append (gethash id carrel--kids) (carrel--gathering-stored gathering)))
         (unless (or (gethash old listed) (not (equal (gethash old carrel--parents) id)))
           (carrel--forget old)))
       (puthash id ids carrel--kids))
     id)))

(defun carrel--show-gathered (id)
  "Show the rows of ID's listing held so far, if it is gathered in pages.
The pages still to come are added as they arrive."
  (let ((gathering (gethash id carrel--gathering)))
    (when (and gathering (not (carrel--gathering-shown gathering)))
      (setf (carrel--gathering-shown gathering) t)
      (puthash id nil carrel--kids)
      (carrel--show-more id (carrel--gathering-round gathering)))))

(defun carrel--note-for-gatherings (change-list)
  "Mark the listings gathered in pages that CHANGE-LIST alters.
Each is gathered again from its first page when its next page comes."
  (when (> (hash-table-count carrel--gathering) 0)
    (dolist (change change-list)
      (dolist (id (carrel--listings-changed change))
        (let ((gathering (gethash id carrel--gathering)))
          (when gathering (setf (carrel--gathering-stale gathering) t)))))))

(defun carrel--fetched-later (buffer apply id)
  "Queue `carrel--fetched' with BUFFER, APPLY and ID in the tree BUFFER."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (carrel--later (lambda () (carrel--fetched buffer apply id))))))

(defun carrel--fetched (buffer apply id)
  "Call APPLY in the tree BUFFER for the answered fetch of ID, then maybe redraw."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (let ((again (gethash id carrel--in-flight)))
        (remhash id carrel--in-flight)
        (setq carrel--ahead-looked nil)
        (condition-case err
            (progn
              (funcall apply)
              (carrel--open-new-projects))
          (error (message "Carrel: %s" (error-message-string err))))
        ;; A row the server could not list shows as empty rather than being
        ;; asked for again and again.
        (when (and (gethash id carrel--rows) (not (carrel--loaded-p id)))
          (puthash id nil carrel--kids))
        (setq carrel--pending (max 0 (1- carrel--pending)))
        (let ((waiters (gethash id carrel--waiters)))
          (remhash id carrel--waiters)
          (dolist (fn (nreverse waiters))
            (condition-case err
                (funcall fn)
              (error (message "Carrel: %s" (error-message-string err))))))
        (when (consp again)
          ;; What is held is drawn meanwhile: a long burst shows as it goes.
          (carrel--render-soon)
          (carrel--fetch-async (list again))))
      (let ((missing (carrel--unloaded)))
        (if missing
            (carrel--fetch-async (delete-dups (delq nil (mapcar #'carrel--fetch-spec missing))))
          (when (zerop carrel--pending)
            ;; Expanding all is done: a folder that comes later starts
            ;; collapsed, like any other.
            (setq carrel--expanding-all nil)
            (carrel--render-soon)))))))

(defun carrel--walk (fn)
  "Call FN with each shown row's identity and depth, in display order."
  (cl-labels ((walk (id depth)
                    (funcall fn id depth)
                    (when (gethash id carrel--expanded)
                      (dolist (kid (gethash id carrel--kids))
                        (walk kid (1+ depth))))))
    (dolist (id carrel--root-ids) (walk id 0))))

(defun carrel--unloaded ()
  "Return the shown rows that are expanded but whose children are not held."
  ;; Asked after every answer and every expand: the expanded rows are a
  ;; few dozen, the rows shown may be a folder of a thousand, so those
  ;; are walked only when an expanded row is missing its listing.
  (when (catch 'missing
          (maphash (lambda (id _)
                     (unless (carrel--loaded-p id) (throw 'missing t)))
                   carrel--expanded)
          nil)
    (carrel--unloaded-in-order)))

(defun carrel--unloaded-in-order ()
  "Return what `carrel--unloaded' gives, in display order, walking every row shown."
  (let ((missing nil))
    (carrel--walk (lambda (id _depth)
                    (when (and (gethash id carrel--expanded)
                               (carrel--container-p (carrel--node id))
                               (not (carrel--loaded-p id)))
                      (push id missing))))
    (nreverse missing)))

(defun carrel--load ()
  "Fetch, now, every shown row that is expanded but not held."
  (let ((missing (carrel--unloaded)))
    (while missing
      (carrel--fetch-all (seq-remove #'carrel--loaded-p missing))
      (setq missing (seq-remove (lambda (id) (member id missing)) (carrel--unloaded)))))
  (carrel--open-new-projects t))

(defun carrel--first-view-wanted (ids)
  "Expand the rows IDS; return those a first view fetches before going on."
  (dolist (id ids) (puthash id t carrel--expanded))
  (setq carrel--projects-new (seq-remove (lambda (id) (member id ids)) carrel--projects-new))
  (seq-filter (lambda (id)
                (pcase (carrel--kind id)
                  ("library" (not (carrel--loaded-p id)))
                  ;; A workspace folder that is itself a project comes
                  ;; with the roots, its sections without their rows.
                  ("project" (let ((first (car (gethash id carrel--kids))))
                               (or (not (carrel--loaded-p id))
                                   (and first (not (carrel--loaded-p first))))))))
              ids))

(defun carrel--first-view-next (ids)
  "Open the first section of each project among the fetched rows IDS.
Return the projects of each library among IDS: the next level of
the first view."
  (let ((projects nil))
    (dolist (id ids)
      (pcase (carrel--kind id)
        ("library"
         (dolist (kid (gethash id carrel--kids))
           (when (equal (carrel--kind kid) "project")
             (push kid projects))))
        ("project"
         (let ((first (car (gethash id carrel--kids))))
           (when first (puthash first t carrel--expanded))))))
    (nreverse projects)))

(defun carrel--expand-first-view (ids)
  "Expand the rows IDS as a first view does: a project and its first section.
A library expands with each of its projects.  The rows of one level
are fetched together."
  (carrel--fetch-all (carrel--first-view-wanted ids))
  (let ((projects (carrel--first-view-next ids)))
    (when projects
      (carrel--expand-first-view projects))))

(defun carrel--expand-first-view-async (ids done)
  "Expand the rows IDS as `carrel--expand-first-view' does, without waiting.
The same rows are asked for, a level at a time.  Call DONE in the
tree buffer once every row of the first view is in."
  (let* ((specs (delete-dups (delq nil (mapcar #'carrel--fetch-spec
                                               (carrel--first-view-wanted ids)))))
         (left (length specs))
         (next (lambda ()
                 (let ((projects (carrel--first-view-next ids)))
                   (if projects
                       (carrel--expand-first-view-async projects done)
                     (funcall done))))))
    (if (zerop left)
        (funcall next)
      (carrel--fetch-async specs nil (lambda ()
                                       (setq left (1- left))
                                       (when (zerop left) (funcall next)))))))

(defun carrel--open-new-projects (&optional now)
  "Open each project held for the first time, as in the first view.
A project made since the first view, by another editor, the command
line, git or a sync, is then shown as it would have been had it been
there all along.  With NOW, fetch their rows before returning;
otherwise without waiting, and draw them once they are in."
  (when (eq carrel--first-view 'held)
    (let ((ids (seq-filter (lambda (id)
                             (and (equal (carrel--kind id) "project") (carrel--visible-p id)))
                           (nreverse carrel--projects-new))))
      (setq carrel--projects-new nil)
      (when ids
        (if now
            (carrel--expand-first-view ids)
          (carrel--expand-first-view-async ids #'carrel--render-soon))))))

(defun carrel--fetch-roots (&optional first-view)
  "Fetch the top rows; with FIRST-VIEW, expand as a first view does."
  (let ((roots (carrel--request-roots carrel--conn)))
    (setq carrel--root-ids (mapcar (lambda (node) (carrel--store node nil)) roots))
    (if first-view
        (progn
          (carrel--expand-first-view carrel--root-ids)
          (setq carrel--first-view 'held))
      (dolist (id carrel--root-ids) (puthash id t carrel--expanded)))))

(defun carrel--fetch-first-view-async ()
  "Fetch the top rows and the first view as opening does, without waiting.
What comes in is kept and drawn through the tree's queue, like the
answers to changes, so Emacs goes on meanwhile; the first view is
`held' once its last row is in."
  (let* ((buffer (current-buffer))
         ;; Nothing held: opening fetches the first view itself, as usual.
         (failed (lambda (&rest _)
                   (carrel--fetched-later buffer (lambda () (setq carrel--first-view nil)) :roots))))
    (setq carrel--first-view 'loading)
    (cl-incf carrel--pending)
    (cl-flet ((loaded (roots)
                (carrel--fetched-later
                 buffer
                 (lambda ()
                   (setq carrel--root-ids (mapcar (lambda (node) (carrel--store node nil)) roots))
                   (carrel--expand-first-view-async
                    carrel--root-ids
                    (lambda ()
                      (setq carrel--first-view 'held)
                      (carrel--render-soon))))
                 :roots)))
      (unless (carrel--take-early-roots
               carrel--conn (lambda (outcome)
                              (if (eq (car outcome) :result)
                                  (loaded (cadr outcome))
                                (funcall failed))))
        (jsonrpc-async-request
         carrel--conn 'carrel/tree (list :depth 1)
         :success-fn #'loaded
         :error-fn failed
         :timeout-fn failed)))))

(defun carrel--await-first-view ()
  "Wait while this tree's first view is still coming in the background."
  (while (and (eq carrel--first-view 'loading)
              carrel--conn (jsonrpc-running-p carrel--conn))
    (accept-process-output nil 0.01)))

;;;; Applying changes

(defun carrel--parent-uri (uri)
  "Return the URI of the folder that URI lies in."
  (and uri (string-match "\\`\\(.*\\)/[^/]+\\'" uri) (match-string 1 uri)))

(defun carrel--shown-container-p (id)
  "Return non-nil if the row ID is held, expanded, fetched and shown."
  (and (gethash id carrel--rows) (gethash id carrel--expanded)
       (carrel--loaded-p id) (carrel--visible-p id)))

(defun carrel--project-of-uri (uri)
  "Return the identity of the held project row that URI lies in, or nil."
  ;; Up the path, not across every row: a burst of changes stays cheap.
  (cl-loop for parent = (carrel--parent-uri uri) then (carrel--parent-uri parent)
           while parent
           when (equal (carrel--kind parent) "project") return parent))

(defun carrel--listings-changed (change &optional placed)
  "Return the identities of rows whose listing CHANGE alters.
With PLACED non-nil, the rows it adds and moves are patched in: its
folders' listings are left out, \"All\" and new orders kept."
  (let* ((uri (plist-get change :uri))
         (old (plist-get change :oldUri))
         (owner (carrel--node uri)))
    (if (and (equal (plist-get change :type) "changed")
             (member (plist-get owner :kind) '("project" "library")))
        ;; A setting such as the sort can reorder every listing below.
        (let ((ids nil))
          (maphash (lambda (id node)
                     (when (and (plist-get node :uri)
                                (or (equal (plist-get node :uri) uri)
                                    (string-prefix-p (concat uri "/") (plist-get node :uri))))
                       (push id ids)))
                   carrel--rows)
          ids)
      (let ((ids (and (not placed) (delq nil (list (carrel--parent-uri uri) (carrel--parent-uri old))))))
        ;; A folder's own `changed' means its order changed: its listing too.
        (when (and (equal (plist-get change :type) "changed")
                   (equal (plist-get owner :kind) "folder"))
          (push uri ids))
        (dolist (path (delq nil (list uri old)))
          (let ((project (carrel--project-of-uri path)))
            (when project
              (push (concat (carrel--node-uri project) "/.carrel/all") ids))))
        ids))))

(defun carrel--node-uri (id)
  "Return the URI of the row ID."
  (plist-get (carrel--node id) :uri))

(defun carrel--remap-expansion (old new)
  "Keep rows expanded at or under OLD expanded at the same place under NEW.
A project seen at OLD counts as seen at NEW."
  (dolist (id (hash-table-keys carrel--expanded))
    (when (or (equal id old)
              (string-prefix-p (concat old "/") id)
              (string-prefix-p (concat old "#") id))
      (remhash id carrel--expanded)
      (puthash (concat new (substring id (length old))) t carrel--expanded)))
  ;; A project renamed or moved is the same project: collapsed, it stays so.
  (when (gethash old carrel--projects-seen)
    (puthash new t carrel--projects-seen)))

(defun carrel--unlist (id)
  "Take the row ID out of its parent's listing, and forget it."
  (let ((parent (gethash id carrel--parents)))
    (when (and parent (carrel--loaded-p parent))
      (puthash parent (delete id (gethash parent carrel--kids)) carrel--kids))
    (carrel--forget id)))

(defun carrel--place (placed)
  "Put each row of PLACED in its listing, just after the row it names.
One pass per listing: a burst places two hundred rows in a listing of
a thousand.  Return the rows to fetch instead: a listing that lacks a
row named (it is behind), one where a new project appears (it opens as
in the first view), and a folder open at its new place."
  (let ((fetch nil) (groups nil))
    (dolist (p placed)
      (let ((parent (plist-get p :parent)) (node (plist-get p :node)))
        (when (and node (carrel--loaded-p parent))
          (if (equal (plist-get node :kind) "project")
              (push parent fetch)
            (let ((group (assoc parent groups)))
              (if group (push p (cdr group)) (push (list parent p) groups)))))))
    (dolist (group groups)
      (let ((parent (car group))
            (moving (make-hash-table :test #'equal))
            (following (make-hash-table :test #'equal))
            (first nil) (out nil) (kept 0))
        (dolist (p (reverse (cdr group)))
          (let* ((node (plist-get p :node)) (id (carrel--id node)) (after (plist-get p :after)))
            (puthash id t moving)
            (if after (puthash after (append (gethash after following) (list id)) following)
              (setq first (append first (list id))))
            (unless (equal (gethash id carrel--parents) parent) (carrel--forget id))
            (carrel--store node parent)
            (when (and (gethash id carrel--expanded) (not (carrel--loaded-p id)))
              (push id fetch))))
        (cl-flet ((chain (start)
                    ;; Each row, then the rows placed after it, and so on.
                    (let ((stack start))
                      (while stack
                        (let ((id (pop stack)))
                          (push id out)
                          (setq stack (append (gethash id following) stack)))))))
          (chain first)
          (dolist (id (gethash parent carrel--kids))
            (unless (gethash id moving)
              (cl-incf kept)
              (chain (list id)))))
        (unless (= (length out) (+ kept (hash-table-count moving)))
          (push parent fetch))
        (puthash parent (nreverse out) carrel--kids)))
    fetch))

(defun carrel--apply-change (change-list updated &optional placed)
  "Follow a change notice in this tree: its CHANGE-LIST and UPDATED rows.
Rows in UPDATED are replaced as they are.  With PLACED (a vector of
the rows the changes add and move, and where), the listings held are
patched; without it, the shown folders whose listing changed are
fetched again, each once, without waiting."
  (carrel--note-for-gatherings change-list)
  (dolist (node updated)
    (let ((id (carrel--id node)))
      (when (gethash id carrel--rows)
        (puthash id (carrel--bare node) carrel--rows)
        ;; A folder another program made a project by writing its marker
        ;; opens as a project made whole does.
        (when (and (equal (plist-get node :kind) "project")
                   (not (gethash id carrel--projects-seen)))
          (puthash id t carrel--projects-seen)
          (push id carrel--projects-new)))))
  (when carrel--projects-new (carrel--open-new-projects))
  (let ((specs nil)
        (patch (and placed t)))
    (setq placed (append placed nil))
    (dolist (change change-list)
      (when (plist-get change :oldUri)
        (carrel--remap-expansion (plist-get change :oldUri) (plist-get change :uri)))
      (when patch
        (let ((gone (pcase (plist-get change :type)
                      ("deleted" (plist-get change :uri))
                      ("moved" (plist-get change :oldUri)))))
          (when (and gone (gethash gone carrel--rows))
            (carrel--unlist gone))))
      (dolist (id (carrel--listings-changed change patch))
        (cond ((carrel--shown-container-p id)
               (push (carrel--fetch-spec id) specs))
              ;; Held out of sight, under a collapsed section: not fetched
              ;; now, but forgotten, so that it is fetched when shown again
              ;; instead of showing what no longer is.
              ((and (carrel--loaded-p id) (not (equal (carrel--kind id) "section")))
               (carrel--forget-below id)))))
    (when (seq-some (lambda (p) (carrel--container-p (plist-get p :node))) placed)
      (setq carrel--ahead-looked nil))
    (dolist (id (carrel--place placed))
      ;; A folder open at its new place is fetched though it holds nothing yet.
      (cond ((and (gethash id carrel--rows) (gethash id carrel--expanded) (carrel--visible-p id))
             (push (carrel--fetch-spec id) specs))
            ((and (carrel--loaded-p id) (not (equal (carrel--kind id) "section")))
             (carrel--forget-below id))))
    (setq specs (delete-dups (delq nil specs)))
    ;; Parents first, so that a vanished child is dropped before it is asked for.
    (setq specs (sort specs (lambda (a b) (< (carrel--depth (car a)) (carrel--depth (car b))))))
    (carrel--render-soon)
    (carrel--fetch-async specs t)))

(defun carrel--depth (id)
  "Return how many rows lie above the row ID."
  (cl-loop for parent = (gethash id carrel--parents) then (gethash parent carrel--parents)
           while parent count t))

;;;; Drawing

(defvar carrel--drawn)
(defvar carrel--render-queued)

(defmacro carrel--with-collection-put-off (&rest body)
  "Run BODY with garbage collection put off until it is done.
Reading and drawing a folder of a thousand rows conses a few
megabytes: at the default threshold, two or three collections of
20 to 40 ms each in the middle of it, instead of one after it."
  (declare (indent 0) (debug t))
  `(let ((gc-cons-threshold (max gc-cons-threshold (* 64 1024 1024))))
     ,@body))

(defun carrel--tree-buffer (conn &optional create)
  "Return CONN's live tree buffer, or nil.
With CREATE, make and fill it when there is none."
  (let ((buffer (carrel--tree conn)))
    (cond
     ((and (buffer-live-p buffer) create)
      (with-current-buffer buffer
        ;; Preloaded: what came in the background is shown as it is, and
        ;; nothing is asked again.
        (carrel--await-first-view)
        (carrel--with-collection-put-off
          (if (not carrel--first-view)
              (progn
                (carrel--fetch-roots t)
                (carrel--render)
                (goto-char (point-min)))
            (when (or carrel--render-queued (null carrel--drawn))
              (carrel--render)))))
      buffer)
     ((buffer-live-p buffer) buffer)
     (create
      (with-current-buffer (carrel--new-tree-buffer conn)
        (carrel--with-collection-put-off
          (carrel--fetch-roots t)
          (carrel--render))
        (goto-char (point-min))
        ;; Drawn without the queue: what it shows closed is fetched ahead
        ;; once the queue has run.
        (carrel--later #'ignore)
        (current-buffer))))))

(defun carrel--new-tree-buffer (conn)
  "Make CONN's tree buffer, empty, and return it."
  (with-current-buffer (generate-new-buffer
                        (format "*carrel: %s*"
                                (file-name-nondirectory (carrel--root conn))))
    (carrel-tree-mode)
    (setq carrel--conn conn)
    (setf (carrel--tree conn) (current-buffer))
    (current-buffer)))

(defun carrel--tree-connection (&optional noerror)
  "Return the connection of the current tree buffer.
Signal a user error if there is none, unless NOERROR."
  (cond
   ((and carrel--conn (jsonrpc-running-p carrel--conn)) carrel--conn)
   (noerror nil)
   (carrel--conn (user-error "The Carrel server stopped; run M-x carrel again"))
   (t (user-error "This is not a Carrel tree buffer"))))

(defun carrel--icon-style ()
  "Return `carrel-icon-style', with `auto' resolved for the selected frame."
  (if (eq carrel-icon-style 'auto)
      (if (and (display-graphic-p)
               (seq-every-p (lambda (entry)
                              (or (string-empty-p (cadr entry))
                                  (char-displayable-p (aref (cadr entry) 0))))
                            carrel-icons))
          'glyph
        'text)
    carrel-icon-style))

(defun carrel--icon (node)
  "Return the icon string of NODE for the current `carrel-icon-style'."
  (let* ((name (cond ((eq (plist-get node :link) t) "link")
                     ((eq (plist-get node :unreadable) t) "lock")
                     (t (plist-get node :icon))))
         (entry (cdr (assoc name carrel-icons))))
    (pcase (carrel--icon-style)
      ('glyph (or (car entry) "•"))
      ('text (or (cadr entry) "="))
      (_ ""))))

(defvar carrel-tree-mode-map)

(defconst carrel--onboarding "No project yet: press %s to make one"
  "The line under a library that holds no project; %s is the key.")

(defun carrel--onboarding-p (id)
  "Return non-nil if the row ID is an open library without any project."
  (and (equal (carrel--kind id) "library") (gethash id carrel--expanded)
       (carrel--loaded-p id)
       (not (seq-some (lambda (kid) (equal (carrel--kind kid) "project"))
                      (gethash id carrel--kids)))))

(defun carrel--layout ()
  "Return the lines to draw, in order, each (KEY DEPTH NODE).
KEY is the row's identity, or (note . IDENTITY) for the last line
of a library that holds no project."
  (let ((lines nil)
        ;; Notes waiting for their library's rows to end, innermost
        ;; first, each (DEPTH . LINE); every other editor draws the note
        ;; after the library's own folders and files.
        (notes nil))
    ;; Not `carrel--walk': a file is never expanded, and most rows are
    ;; files, so each costs one lookup, not two.
    (cl-labels ((walk (id depth)
                  (while (and notes (<= depth (caar notes)))
                    (push (cdr (pop notes)) lines))
                  (let* ((node (carrel--node id))
                         (kind (plist-get node :kind)))
                    (push (list id depth node) lines)
                    (unless (equal kind "file")
                      (when (and (equal kind "library") (carrel--onboarding-p id))
                        (push (cons depth (list (cons 'note id) (1+ depth) node)) notes))
                      (when (gethash id carrel--expanded)
                        (dolist (kid (gethash id carrel--kids))
                          (walk kid (1+ depth))))))))
      (dolist (id carrel--root-ids) (walk id 0)))
    (dolist (note notes)
      (push (cdr note) lines))
    (nreverse lines)))

(defun carrel--insert-line (line)
  "Insert LINE, one of `carrel--layout', at point, without its newline."
  ;; Inserted piece by piece rather than built as a string: drawing a
  ;; folder of a thousand then leaves almost no garbage to collect.
  (pcase-let ((`(,key ,depth ,node) line)
              (start (point)))
    (insert-char ?\s (* 2 depth))
    (if (consp key)
        (let ((binding (where-is-internal #'carrel-new-project carrel-tree-mode-map t))
              (text-start (point)))
          (insert (format carrel--onboarding (if binding (key-description binding) "P")))
          (put-text-property text-start (point) 'face 'carrel-count)
          (add-text-properties start (point) (list 'carrel-id (cdr key) 'carrel-note t)))
      (let ((icon (carrel--icon node))
            (summary (plist-get node :summary))
            (title-start nil))
        (unless (string-empty-p icon) (insert icon " "))
        (setq title-start (point))
        (insert (plist-get node :title))
        (put-text-property title-start (point) 'face
                           (pcase (plist-get node :kind)
                             ("section" 'carrel-section)
                             ("file" 'default)
                             (_ 'carrel-folder)))
        (when (and summary (not (string-empty-p summary)))
          (insert "  ")
          (let ((summary-start (point)))
            (insert summary)
            (put-text-property summary-start (point) 'face 'carrel-count)))
        (let ((notes (delq nil (list (and (eq (plist-get node :link) t) "link")
                                     (and (eq (plist-get node :unreadable) t) "unreadable")))))
          (when notes
            (insert "  ")
            (let ((notes-start (point)))
              (insert "(" (string-join notes ", ") ")")
              (put-text-property notes-start (point) 'face 'carrel-count))))
        (put-text-property start (point) 'carrel-id key)))))

(defun carrel--row-id ()
  "Return the identity of the row at point, or nil."
  (get-text-property (line-beginning-position) 'carrel-id))

(defun carrel--goto-id (id)
  "Move point to the row of ID and return non-nil, or return nil."
  (let ((start (point)))
    (goto-char (point-min))
    (let ((match (text-property-search-forward 'carrel-id id t)))
      (while (and match (get-text-property (prop-match-beginning match) 'carrel-note))
        (setq match (text-property-search-forward 'carrel-id id t)))
      (goto-char (if match (prop-match-beginning match) start))
      (and match t))))

(defvar-local carrel--drawn nil
  "The lines as last drawn, as `carrel--layout' gives them.")

(defvar-local carrel--queue nil
  "Work on the tree that messages asked for, oldest first.")

(defvar-local carrel--queue-timer nil
  "The timer that runs the next piece of `carrel--queue', or nil.")

(defvar-local carrel--render-queued nil
  "Non-nil when a redraw waits in `carrel--queue'.")

(defvar-local carrel--opened nil
  "The row the writer just expanded, while the rows it opens come in.
Each drawing meanwhile scrolls them into view; see `carrel--show-opened'.")

(defvar-local carrel--collect-timer nil
  "The timer of the next `carrel--collect-when-idle', or nil.")

(defconst carrel--collect-after 0.05
  "Seconds the tree stays idle before it may collect garbage.
Changes that keep coming, such as a scan's or a burst's, put it off.")

(defun carrel--later (fn)
  "Run FN in this tree buffer soon, after the work queued before it.
Each message's work runs apart from the reading of the message and
from the next one's, so Emacs answers keys and timers in between:
a burst of changes never holds it up for the whole burst."
  (setq carrel--queue (nconc carrel--queue (list fn)))
  (unless carrel--queue-timer
    (setq carrel--queue-timer (run-at-time 0 nil #'carrel--run-queue (current-buffer)))))

(defun carrel--run-queue (buffer)
  "Run the next piece of work queued in the tree BUFFER."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq carrel--queue-timer nil)
      (let ((fn (pop carrel--queue)))
        (when carrel--queue
          (setq carrel--queue-timer (run-at-time 0 nil #'carrel--run-queue buffer)))
        (when fn (funcall fn))
        ;; Fetched ahead as soon as all that was waited for is drawn, not
        ;; once idle: while the server reads a large library, its counts
        ;; come every 50 ms or so for seconds.
        (when (and (null carrel--queue) (zerop carrel--pending)
                   (not (carrel--fetch-ahead)))
          (when (timerp carrel--collect-timer) (cancel-timer carrel--collect-timer))
          (setq carrel--collect-timer
                (run-at-time carrel--collect-after nil #'carrel--collect-when-idle buffer)))))))

(defun carrel--collect-when-idle (buffer)
  "Fetch ahead, else collect garbage, if the tree BUFFER is idle.
Garbage is collected only if half the allowance is used.  What is
fetched ahead is `carrel--fetch-ahead-specs'."
  ;; A collection takes 10 to 50 ms.  Made here, once the tree has drawn
  ;; all it waited for and nothing came since, it seldom falls in the
  ;; middle of the next change, between the change and its row.  The
  ;; listings fetched ahead come first: their answers put it off again,
  ;; so it collects what they left too.
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq carrel--collect-timer nil)
      (when (and (null carrel--queue) (zerop carrel--pending)
                 (not (carrel--fetch-ahead)))
        (garbage-collect-maybe 2)))))

(defconst carrel--fetch-ahead-folders 32
  "Most closed folders fetched ahead at once.")

(defun carrel--fetch-ahead ()
  "Fetch the listings of `carrel--fetch-ahead-specs'; return non-nil if any."
  ;; Not before the first view is held: its rows are not all in yet.
  (when (and (not carrel--ahead-looked) (eq carrel--first-view 'held))
    (let ((ahead (carrel--fetch-ahead-specs)))
      (if ahead
          (carrel--fetch-async ahead nil nil t)
        (setq carrel--ahead-looked t))
      ahead)))

(defun carrel--fetch-ahead-specs ()
  "Return the fetches of the closed folders shown whose rows are not held yet.
Each holds at most `carrel-fetch-ahead' rows, and together at most
twice that many, in the order shown: a round is a few listings.
Virtual folders (\"All\" waits for the whole library to be read),
links and folders Carrel may not read are left out."
  (when (and carrel-fetch-ahead (eq carrel--first-view 'held)
             carrel--conn (not (carrel--closing carrel--conn)))
    (let ((specs nil) (folders 0) (rows 0))
      (catch 'enough
        (carrel--walk
         (lambda (id _depth)
           (let* ((node (carrel--node id))
                  (size (+ (or (plist-get node :fileCount) 0) (or (plist-get node :folderCount) 0))))
             (when (and (equal (plist-get node :kind) "folder")
                        (eq (plist-get node :hasChildren) t)
                        (not (eq (plist-get node :virtual) t))
                        (not (eq (plist-get node :link) t))
                        (not (eq (plist-get node :unreadable) t))
                        (not (gethash id carrel--expanded))
                        (not (carrel--loaded-p id))
                        (not (gethash id carrel--in-flight))
                        (<= size carrel-fetch-ahead))
               (when (or (>= folders carrel--fetch-ahead-folders)
                         (> (+ rows size) (* 2 carrel-fetch-ahead)))
                 (throw 'enough nil))
               (push (carrel--fetch-spec id) specs)
               (setq folders (1+ folders) rows (+ rows size)))))))
      (nreverse specs))))

(defvar carrel--render-slice 0.008
  "Seconds a redraw that was queued may run before it lets Emacs go on.
What is left is drawn in the next slice, after the work queued meanwhile.")

(defun carrel--render-soon ()
  "Redraw the tree buffer once the messages that came together are applied.
A burst of notifications, or answers, is drawn once, not once each."
  (unless carrel--render-queued
    (setq carrel--render-queued t)
    (carrel--later (lambda ()
                     (setq carrel--render-queued nil)
                     (carrel--render nil carrel--render-slice)))))

(defun carrel--render (&optional full slice)
  "Bring the tree buffer up to date, keeping each window's row.
Only the lines that differ from the last drawing change, so a
new file in a folder of thousands inserts one line; with FULL, or
when rows changed their order, every line is drawn again.  With
SLICE, in seconds, a patch that takes longer stops there and the
rest is drawn soon: a thousand new rows, a burst of files dropped
in, do not hold Emacs up for the whole drawing."
  (let* ((inhibit-read-only t)
         (windows (get-buffer-window-list (current-buffer) nil t))
         (spots (mapcar (lambda (pos)
                          (save-excursion
                            (goto-char pos)
                            (cons (and (not (get-text-property (line-beginning-position) 'carrel-note))
                                       (carrel--row-id))
                                  (line-number-at-pos))))
                        (cons (point) (mapcar #'window-point windows))))
         (before carrel--drawn)
         (layout (carrel--layout))
         (restore (lambda (spot)
                    (unless (and (car spot) (equal (carrel--row-id) (car spot)))
                      (unless (and (car spot)
                                   (or (carrel--goto-id (car spot))
                                       (carrel--goto-follower before (cdr spot) layout)))
                        (goto-char (point-min))
                        (forward-line (1- (cdr spot)))))
                    (point)))
         (patched (and (not full) carrel--drawn
                       (carrel--patch carrel--drawn layout (and slice (+ (float-time) slice))))))
    (unless patched
      (erase-buffer)
      (let ((first t))
        (dolist (line layout)
          (if first (setq first nil) (insert "\n"))
          (carrel--insert-line line))))
    (setq carrel--drawn (if (consp patched) patched layout))
    (let ((positions (cl-mapcar (lambda (spot pos) (goto-char pos) (funcall restore spot))
                                spots (cons (point) (mapcar #'window-point windows)))))
      (cl-mapc #'set-window-point windows (cdr positions))
      (goto-char (car positions)))
    (when carrel--opened
      (dolist (window windows)
        (carrel--show-opened window))
      ;; Once all it opens is drawn, later changes leave the window alone.
      (unless (or (consp patched) carrel--expanding-all (> carrel--pending 0))
        (setq carrel--opened nil)))
    (when (consp patched) (carrel--render-soon))))

(defun carrel--show-opened (window)
  "Scroll WINDOW to show the rows below `carrel--opened', if its point is on it.
A row expanded on the window's last line, as TRASH is below a file
being written, would otherwise open out of sight.  As many rows as
fit are shown, the expanded row staying on the window's first line
at most."
  (save-excursion
    (goto-char (window-point window))
    (when (equal (carrel--row-id) carrel--opened)
      (let ((row (line-beginning-position))
            (indent (current-indentation))
            (height (window-body-height window))
            (last (line-beginning-position)))
        ;; The rows below it are those indented further, up to the next
        ;; that is not.
        (while (and (zerop (forward-line 1)) (bolp) (not (eobp))
                    (> (current-indentation) indent))
          (setq last (point)))
        ;; Rows never wrap, so lines counted are lines shown.
        (when (>= (count-lines (window-start window) last) height)
          (goto-char last)
          (forward-line (- 1 height))
          (set-window-start window (min (point) row)))))))

(defun carrel--goto-follower (before line layout)
  "Move point to the row that followed LINE in BEFORE and is in LAYOUT.
BEFORE and LAYOUT are lines as `carrel--layout' gives them, as drawn
and as drawn now.  Failing one after it, take the nearest before it.
Return non-nil when there is one.  When the row at point goes away, a
row above it may go too (the same file listed under an open \"All\"),
so the line alone would skip the row that followed."
  (let ((now (make-hash-table :test #'equal :size (length layout)))
        (old (vconcat before))
        (found nil))
    (dolist (entry layout) (puthash (car entry) t now))
    (cl-loop for index from line below (length old)
             for key = (car (aref old index))
             when (and (not (consp key)) (gethash key now))
             return (setq found key))
    (unless found
      (cl-loop for index downfrom (- line 2) to 0
               for key = (car (aref old index))
               when (and (not (consp key)) (gethash key now))
               return (setq found key)))
    (and found (carrel--goto-id found))))

(defun carrel--same-line-p (was now)
  "Return non-nil if the drawn line WAS and the line NOW would look the same."
  (and (equal (car was) (car now))
       (= (nth 1 was) (nth 1 now))
       (equal (nth 2 was) (nth 2 now))))

(defun carrel--patch (old new &optional deadline)
  "Turn the lines OLD, as drawn, into NEW in place; return nil if they moved.
Lines that stay the same are not touched.  When rows changed their
order, nothing is changed and nil is returned, for a full redraw.
Return t once done, or, if DEADLINE (a `float-time') passes first,
the lines as drawn so far, where the next patch starts from."
  ;; Only the stretch between the rows alike at the top and at the
  ;; bottom, by key whatever their text, is weighed for rows added and
  ;; removed: a new file in a folder of a thousand, whose folders' counts
  ;; change above it, builds no table of a thousand keys, twice, and
  ;; leaves Emacs little garbage to collect.
  (let* ((old-lines (vconcat old))
         (new-lines (vconcat new))
         (top 0)
         (old-end (length old-lines))
         (new-end (length new-lines)))
    (while (and (< top old-end) (< top new-end)
                (equal (car (aref old-lines top)) (car (aref new-lines top))))
      (setq top (1+ top)))
    (while (and (> old-end top) (> new-end top)
                (equal (car (aref old-lines (1- old-end))) (car (aref new-lines (1- new-end)))))
      (setq old-end (1- old-end) new-end (1- new-end)))
    (let ((old-keys (carrel--id-table (- old-end top)))
          (new-keys (carrel--id-table (- new-end top)))
          (old-stretch (mapcar #'car (substring old-lines top old-end)))
          (new-stretch (mapcar #'car (substring new-lines top new-end))))
      ;; Rows only added, as when a folder of a thousand is opened, need
      ;; neither table: only a row of the old stretch can be deleted, and
      ;; only if it is not among the new.
      (dolist (key old-stretch) (puthash key t old-keys))
      (when old-stretch
        (dolist (key new-stretch) (puthash key t new-keys)))
      ;; Same keys in the same order, whatever was added or removed?  Keys
      ;; are unique, so none of these is among the rows alike.
      (when (or (null old-stretch) (null new-stretch)
                (equal (seq-filter (lambda (key) (gethash key new-keys)) old-stretch)
                       (seq-filter (lambda (key) (gethash key old-keys)) new-stretch)))
        ;; Every line is walked, the rows alike too, for their text.
        (let ((drawn nil)
              (steps 0))
          (save-excursion
            (goto-char (point-min))
            ;; Only lines changed count toward the time checks: each
            ;; slice walks the rows alike from the top again.
            (while (and (or old new)
                        (not (and deadline (> steps 0) (zerop (% steps 16))
                                  (> (float-time) deadline))))
              (let ((was (car old)) (now (car new)))
                (unless (and was now (equal (car was) (car now)) (carrel--same-line-p was now))
                  (setq steps (1+ steps)))
                (cond
                 ((and was now (equal (car was) (car now)))
                  (unless (carrel--same-line-p was now)
                    (delete-region (line-beginning-position) (line-end-position))
                    (carrel--insert-line now))
                  (forward-line 1)
                  (push now drawn)
                  (setq old (cdr old) new (cdr new)))
                 ;; A row of the stretch only: the rows alike at the
                 ;; bottom are in neither table.
                 ((and was old-stretch (gethash (car was) old-keys) (not (gethash (car was) new-keys)))
                  (carrel--delete-line)
                  (setq old (cdr old)))
                 ;; Before a line that stays: the lines alike at the bottom.
                 ((or was (< (point) (point-max)))
                  (carrel--insert-line now)
                  (insert "\n")
                  (push now drawn)
                  (setq new (cdr new)))
                 (t
                  (unless (bobp) (insert "\n"))
                  (carrel--insert-line now)
                  (push now drawn)
                  (setq new (cdr new)))))))
          (if (or old new)
              (nconc (nreverse drawn) (copy-sequence old))
            t))))))

(defun carrel--delete-line ()
  "Delete the line at point with one of its newlines."
  (let ((start (line-beginning-position))
        (end (line-end-position)))
    (cond
     ((< end (point-max)) (delete-region start (1+ end)))
     ((> start (point-min)) (delete-region (1- start) end))
     (t (delete-region start end)))))

(defun carrel--breadcrumb ()
  "Return the header-line breadcrumb of the row at point."
  (let ((trail nil))
    (cl-loop for id = (or (carrel--row-id) (car carrel--root-ids))
             then (gethash id carrel--parents)
             while id
             do (let ((node (carrel--node id)))
                  (unless (equal (plist-get node :kind) "section")
                    (push (plist-get node :title) trail))))
    (string-replace "%" "%%" (string-join (delq nil trail) " › "))))

;;;; Tree helpers for commands

(defun carrel--node-at-point ()
  "Return the node on the current row, or signal a user error."
  (or (carrel--node (carrel--row-id))
      (user-error "No item on this line")))

(defun carrel--item-at-point ()
  "Return the file or folder at point, or signal a user error on a section."
  (let ((node (carrel--node-at-point)))
    (unless (plist-get node :uri)
      (user-error "“%s” is a section header; only what it holds can change"
                  (plist-get node :title)))
    node))

(defun carrel--nearest (pred)
  "Return the nearest of the row at point and the rows above it that PRED accepts."
  (cl-loop for id = (carrel--row-id) then (gethash id carrel--parents)
           while id
           for node = (carrel--node id)
           when (funcall pred node) return node))

(defun carrel--kind-p (&rest kinds)
  "Return a predicate that accepts nodes of one of KINDS."
  (lambda (node) (member (plist-get node :kind) kinds)))

(defun carrel--folder-at-point ()
  "Return the folder, project or library at point, or the file's parent."
  (or (carrel--nearest (lambda (node)
                         (and (plist-get node :uri) (carrel--container-p node))))
      (user-error "No folder here")))

(defun carrel--reveal-uri (uri)
  "Expand and fetch the rows down to the one of URI; return its identity or nil.
Rows under \"All\" are not searched: what they list lives elsewhere too."
  (let ((level carrel--root-ids)
        (found nil))
    (while (and level (not found))
      (let ((next nil))
        (dolist (id level)
          (let* ((node (carrel--node id))
                 (own (plist-get node :uri)))
            (cond
             ((or next (plist-get node :id) (eq (plist-get node :virtual) t)))
             ((equal own uri) (setq found id next id))
             ((and own (string-prefix-p (concat own "/") uri)) (setq next id)))))
        (when (and next (not found))
          (puthash next t carrel--expanded)
          (unless (carrel--loaded-p next) (carrel--fetch next))
          (setq level
                (if (equal (carrel--kind next) "project")
                    ;; A project's rows sit in its sections; open the one that holds it.
                    (cl-loop for section in (gethash next carrel--kids)
                             when (seq-some (lambda (kid)
                                              (let ((own (carrel--node-uri kid)))
                                                (and own (or (equal own uri)
                                                             (string-prefix-p (concat own "/") uri)))))
                                            (gethash section carrel--kids))
                             do (puthash section t carrel--expanded)
                             append (gethash section carrel--kids))
                  (gethash next carrel--kids))))
        (unless next (setq level nil))))
    found))

(defun carrel--settle (conn expect)
  "Wait a moment for CONN's `carrel/didChange' after a command, and its fetches.
EXPECT is the URI the change names, t for any change, or nil for none."
  (let ((deadline (+ (float-time) 2)))
    (when expect
      (while (and (not (gethash (if (eq expect t) :any expect) (carrel--seen conn)))
                  (jsonrpc-running-p conn)
                  (< (float-time) deadline))
        (accept-process-output (jsonrpc--process conn) 0.02)))
    (while (and (or (> carrel--pending 0) carrel--queue)
                (jsonrpc-running-p conn) (< (float-time) deadline))
      (accept-process-output nil 0.02))))

(defun carrel--command (expect show command &rest arguments)
  "Run the server COMMAND with the plist ARGUMENTS from the tree buffer.
Wait for the change it makes (EXPECT, as `carrel--settle' takes, or
a function of the result giving it), then draw the tree and, when
SHOW, put point on the row of the resulting node.  Return the result."
  (let* ((conn (carrel--tree-connection))
         (buffer (current-buffer)))
    (let ((result (apply #'carrel--execute conn command arguments)))
      (with-current-buffer buffer
        (carrel--settle conn (if (functionp expect) (funcall expect result) expect))
        (when (and (plist-get result :uri) (gethash (carrel--id result) carrel--rows)
                   (member command '("carrel.setSort" "carrel.setConfirmDelete" "carrel.setLinkUpdates")))
          (puthash (carrel--id result) (carrel--bare result) carrel--rows))
        (let ((id (and show (plist-get result :uri) (carrel--reveal-uri (plist-get result :uri)))))
          (carrel--load)
          (carrel--render)
          (when id (carrel--goto-id id))))
      result)))

(defconst carrel--new-folder-choice "New folder…"
  "The Move To choice that first creates the destination folder.")

(defun carrel--destinations (conn uri purpose)
  "Ask CONN for the folders for the item URI, for PURPOSE.
PURPOSE is \"move\" or \"newFolder\".  Return (LABEL . FOLDER-URI)
pairs, the label joined with › as the binder titles it."
  (mapcar (lambda (dest)
            (cons (string-join (append (plist-get dest :label) nil) " › ")
                  (plist-get dest :uri)))
          (carrel--request conn 'carrel/destinations (list :uri uri :purpose purpose))))

(defun carrel--read-destination (conn uri title)
  "Ask where to move the item URI called TITLE; return the destination URI.
The choices are the server's `carrel/destinations'.  Choosing
\"New folder…\" creates the folder through CONN first."
  (let* ((choices (carrel--destinations conn uri "move"))
         (answer (carrel--read-choice
                  (format "Move “%s” to: " title)
                  (cons carrel--new-folder-choice (mapcar #'car choices)))))
    (if (equal answer carrel--new-folder-choice)
        (let* ((name (read-string "New folder name: "))
               ;; Its own folder is a fine place for the new one; a Trash is not.
               (parents (carrel--destinations conn uri "newFolder"))
               (parent (cdr (assoc (carrel--read-choice (format "Create “%s” in: " name)
                                                        (mapcar #'car parents))
                                   parents))))
          (unless parent (user-error "No folder chosen; nothing was moved"))
          (plist-get (carrel--execute conn "carrel.newFolder" :parentUri parent :name name)
                     :uri))
      (or (cdr (assoc answer choices))
          (user-error "No such folder: %s" answer)))))

(defun carrel--follow-result (old-uri result)
  "Make buffers follow OLD-URI to where the server's RESULT puts it."
  (carrel--follow-changes
   (list (if (plist-get result :uri)
             (list :type "moved" :oldUri old-uri :uri (plist-get result :uri))
           (list :type "deleted" :uri old-uri)))))

(defun carrel--experimental (conn key)
  "Return KEY of the server's `capabilities.experimental.carrel' through CONN."
  (append (plist-get (carrel--capabilities conn) key) nil))

;;;; Tree commands

(defun carrel-open ()
  "Visit the file at point, or expand or collapse the folder at point.
On the line of a library that holds no project, make one there."
  (interactive)
  (if (get-text-property (line-beginning-position) 'carrel-note)
      ;; The line says to make a project: it does what it says, as in
      ;; every other editor.
      (call-interactively #'carrel-new-project)
    (let ((node (carrel--node-at-point)))
      (if (carrel--container-p node)
          (carrel-toggle)
        (funcall carrel-visit-function (carrel--uri-to-path (plist-get node :uri)))))))

(defun carrel-toggle ()
  "Expand or collapse the row at point."
  (interactive)
  (let* ((id (carrel--row-id))
         (node (carrel--node-at-point)))
    (unless (carrel--container-p node)
      (user-error "“%s” is a file" (plist-get node :title)))
    (if (gethash id carrel--expanded)
        (progn
          (remhash id carrel--expanded)
          ;; Fetched again when shown again, never kept stale meanwhile;
          ;; unless listings are fetched ahead, and so kept up to date.
          (unless (or carrel-fetch-ahead (equal (plist-get node :kind) "section"))
            (carrel--forget-below id))
          (carrel--with-collection-put-off (carrel--render)))
      (puthash id t carrel--expanded)
      (setq carrel--opened id
            carrel--ahead-looked nil)
      (carrel--show-gathered id)
      (carrel--with-collection-put-off
        (carrel--load)
        ;; A slice, the first rows opened, and the rest next: a folder of
        ;; a thousand shows its first screenful without waiting for the
        ;; thousandth row.
        (carrel--render nil carrel--render-slice)))
    (carrel--goto-id id)))

(defun carrel-new-file (name)
  "Create a file called NAME in the folder at point and visit it.
The server adds the project's default extension when NAME has none."
  (interactive (list (read-string "New file name: ")))
  (let ((node (carrel--command (lambda (result) (plist-get result :uri)) t "carrel.newFile"
                               :parentUri (plist-get (carrel--folder-at-point) :uri)
                               :name name)))
    (funcall carrel-visit-function (carrel--uri-to-path (plist-get node :uri)))
    (goto-char (point-max))))

(defun carrel-new-folder (name)
  "Create a folder called NAME in the folder at point."
  (interactive (list (read-string "New folder name: ")))
  (carrel--command (lambda (result) (plist-get result :uri)) t "carrel.newFolder"
                   :parentUri (plist-get (carrel--folder-at-point) :uri)
                   :name name))

(defun carrel-rename (new-name)
  "Rename the item at point to NEW-NAME.
A file keeps its extension when NEW-NAME has none."
  (interactive
   (let ((node (carrel--item-at-point)))
     ;; The server refuses a permanent folder whatever the name, and a
     ;; rename to the same name changes nothing: asking it first gives
     ;; the writer its refusal, in its words, before any typing.
     (when (or (eq (plist-get node :permanent) t) (equal (plist-get node :kind) "library"))
       (carrel--execute (carrel--tree-connection) "carrel.rename"
                        :uri (plist-get node :uri) :newName (plist-get node :name)))
     (list (read-string "Rename to: " (plist-get node :name)))))
  (let* ((node (carrel--item-at-point))
         (uri (plist-get node :uri)))
    ;; The server would change nothing and send no change, which
    ;; `carrel--settle' would wait for with Emacs held up.
    (unless (equal new-name (plist-get node :name))
      (carrel--follow-result
       uri (carrel--command (lambda (result) (plist-get result :uri)) t "carrel.rename"
                            :uri uri :newName new-name)))))

(defun carrel-move ()
  "Move the item at point to a folder read in the minibuffer."
  (interactive)
  (let* ((node (carrel--item-at-point))
         (uri (plist-get node :uri))
         (destination (carrel--read-destination (carrel--tree-connection) uri
                                                (plist-get node :title)))
         (result (carrel--command (lambda (result) (plist-get result :uri)) t "carrel.moveTo"
                                  :uri uri :destinationUri destination)))
    (carrel--follow-result uri result)))

(defun carrel-delete ()
  "Move the item at point to its project's Trash.
In the Trash, delete it for good.  The server asks first, and says
what it did."
  (interactive)
  (let* ((uri (plist-get (carrel--item-at-point) :uri))
         (result (carrel--command (lambda (result) (or (plist-get result :uri) uri)) nil
                                  "carrel.delete" :uri uri)))
    (carrel--follow-result uri result)))

(defun carrel-restore ()
  "Put the Trash item at point back where it was deleted from."
  (interactive)
  (let* ((uri (plist-get (carrel--item-at-point) :uri))
         (result (carrel--command (lambda (result) (plist-get result :uri)) t
                                  "carrel.restore" :uri uri)))
    (carrel--follow-result uri result)))

(defun carrel-duplicate ()
  "Copy the file or folder at point beside itself, as \"Spring copy.md\".
Point goes to the copy."
  (interactive)
  (let* ((uri (plist-get (carrel--item-at-point) :uri))
         (result (carrel--command (lambda (result) (plist-get result :uri)) t
                                  "carrel.duplicate" :uri uri)))
    (carrel--follow-result uri result)))

(defun carrel-empty-trash ()
  "Delete for good everything in the Trash of the project at point.
The server asks first, and tells what it did."
  (interactive)
  (let ((project (or (carrel--nearest (carrel--kind-p "project"))
                     (user-error "Put point inside a project to empty its Trash"))))
    (carrel--command t nil "carrel.emptyTrash" :projectUri (plist-get project :uri))))

(defun carrel--library-at-point ()
  "Return the library at point, or the first one shown."
  (or (carrel--nearest (carrel--kind-p "library"))
      (seq-find (carrel--kind-p "library") (mapcar #'carrel--node carrel--root-ids))
      (user-error "Open Carrel on the folder that holds your projects to make a new one")))

(defun carrel-new-project (name type)
  "Create a project called NAME of TYPE in the library at point.
TYPE is the title of one of the project types the server offers,
such as \"Novel\"."
  (interactive
   (let ((types (carrel--experimental (carrel--tree-connection) :projectTypes)))
     (carrel--library-at-point)
     (list (read-string "Project name: ")
           (carrel--read-choice "Project type: "
                                (mapcar (lambda (type) (plist-get type :title)) types)
                                (plist-get (car types) :title)))))
  (let* ((library (carrel--library-at-point))
         (types (carrel--experimental (carrel--tree-connection) :projectTypes))
         (type-id (or (plist-get (seq-find (lambda (entry) (equal (plist-get entry :title) type))
                                           types)
                                 :id)
                      (user-error "Unknown project type: %s" type)))
         (node (carrel--command (lambda (result) (plist-get result :uri)) nil "carrel.newProject"
                                :parentUri (plist-get library :uri) :name name :type type-id))
         (id (carrel--reveal-uri (plist-get node :uri))))
    (when id
      (carrel--expand-first-view (list id))
      (carrel--render)
      (carrel--goto-id id))
    node))

(defun carrel-sort (choice)
  "Sort the project at point, or the library, by CHOICE.
CHOICE is the title of one of the sort orders the server offers."
  (interactive
   (let ((sorts (carrel--experimental (carrel--tree-connection) :sorts)))
     (list (carrel--read-choice "Sort by: " (mapcar (lambda (sort) (plist-get sort :title)) sorts)
                                (plist-get (car sorts) :title)))))
  (let ((target (or (carrel--nearest (carrel--kind-p "project" "library"))
                    (user-error "Nothing to sort here")))
        (how (or (seq-find (lambda (sort) (equal (plist-get sort :title) choice))
                           (carrel--experimental (carrel--tree-connection) :sorts))
                 (user-error "Unknown sort: %s" choice))))
    (carrel--command (plist-get target :uri) t "carrel.setSort"
                     :uri (plist-get target :uri) :by (plist-get how :by)
                     :descending (if (eq (plist-get how :descending) t) t :json-false))))

(defun carrel--orderable-p (node)
  "Return non-nil when the writer can put NODE in order among its siblings.
Files and their own folders can; sections, permanent folders, \"All\"
and the rows it lists (which carry an `:id') cannot."
  (and (plist-get node :uri)
       (not (plist-get node :id))
       (member (plist-get node :kind) '("file" "folder"))
       (not (eq (plist-get node :permanent) t))
       (not (eq (plist-get node :virtual) t))))

(defun carrel--reorder (step)
  "Move the row at point STEP places among its siblings: -1 up, 1 down.
Send `carrel.reorder' before the previous sibling or after the next
one; at either end send nothing and say so."
  (let* ((id (carrel--row-id))
         (node (carrel--item-at-point))
         (title (plist-get node :title)))
    (unless (carrel--orderable-p node)
      ;; A sentence with its period, as the other editors and the
      ;; server's refusals say it: passed whole, past checkdoc's rule
      ;; for Emacs's own terse errors.
      (user-error "%s" (format "“%s” keeps its place: only files and your own folders move up and down."
                               title)))
    (let* ((siblings (seq-filter (lambda (kid) (carrel--orderable-p (carrel--node kid)))
                                 (gethash (gethash id carrel--parents) carrel--kids)))
           (place (+ (cl-position id siblings :test #'equal) step))
           (neighbour (and (>= place 0) (nth place siblings))))
      (if (not neighbour)
          (message "“%s” is already %s." title (if (< step 0) "first" "last"))
        (let* ((uri (plist-get node :uri))
               (result (carrel--command t t "carrel.reorder" :uri uri
                                        (if (< step 0) :before :after)
                                        (carrel--node-uri neighbour)))
               (moved (and (not (plist-get result :uri)) (carrel--reveal-uri uri))))
          (when moved
            (carrel--render)
            (carrel--goto-id moved)))))))

(defun carrel-move-up ()
  "Move the file or folder at point before its previous sibling.
The folder's sort becomes \"Binder order\"."
  (interactive)
  (carrel--reorder -1))

(defun carrel-move-down ()
  "Move the file or folder at point after its next sibling.
The folder's sort becomes \"Binder order\"."
  (interactive)
  (carrel--reorder 1))

(defun carrel-set-target (target)
  "Set the word target of the project, folder or file at point to TARGET.
TARGET is a number of words; an empty string clears the target.
The row's summary then shows the words against it, as the server
words it."
  (interactive
   (let ((node (carrel--item-at-point)))
     (list (read-string (format "Word target for “%s” (empty clears it): " (plist-get node :title))
                        (and (plist-get node :target) (number-to-string (plist-get node :target)))))))
  (let* ((uri (plist-get (carrel--item-at-point) :uri))
         (text (string-trim (or target "")))
         ;; Anything but digits goes as typed: the server's refusal says
         ;; what it expects, in the writer's language.
         (words (cond ((string-empty-p text) nil)
                      ((string-match-p "\\`[0-9]+\\'" text) (string-to-number text))
                      (t text))))
    (carrel--command t nil "carrel.setTarget" :uri uri :words words)))

(defun carrel--compile-choices (project)
  "Return the choices for compiling PROJECT, as (RECIPES . FORMATS).
Both come from the server, in its words: the recipes PROJECT offers
from `carrel/compileOptions' (its type's, the default first, then its
own), and every format from `initialize'."
  (let* ((conn (carrel--tree-connection))
         (compile (plist-get (carrel--capabilities conn) :compile))
         (options (carrel--request conn 'carrel/compileOptions
                                   (list :projectUri (plist-get project :uri)))))
    (cons (append (plist-get options :recipes) nil)
          (append (plist-get compile :formats) nil))))

(defun carrel--by-title (title entries)
  "Return the one of ENTRIES whose `:title' is TITLE, or signal a user error."
  (or (seq-find (lambda (entry) (equal (plist-get entry :title) title)) entries)
      (user-error "Carrel offers no “%s” here" title)))

(defun carrel--project-at-point (&optional purpose)
  "Return the project at point, or signal a user error.
PURPOSE is `byline' for setting its byline, else compiling."
  (or (carrel--nearest (carrel--kind-p "project"))
      (user-error (if (eq purpose 'byline) "Put point in a project to set its byline"
                    "Put point in a project to compile it"))))

(defun carrel-compile (recipe format)
  "Compile the project at point with RECIPE into FORMAT.
RECIPE is the title of one of the recipes the server offers for the
project (its type's and its own), FORMAT the title of one of its
formats; asked, the recipe's own format comes first, so RET keeps
it.  The document goes to the project's Compiled folder and point to
its row; a format Carrel writes itself (Markdown, plain text, HTML,
Fountain) is visited, and for the others the server's message says where it is.
A submission packet then offers Submit this packet…, which submits
the pieces compiled to a market, the document as their packet."
  (interactive
   (let* ((choices (carrel--compile-choices (carrel--project-at-point)))
          (recipe (carrel--read-choice "Recipe: " (mapcar (lambda (r) (plist-get r :title)) (car choices))
                                       (plist-get (caar choices) :title)))
          (own (plist-get (carrel--by-title recipe (car choices)) :format))
          (formats (append (seq-filter (lambda (f) (equal (plist-get f :id) own)) (cdr choices))
                           (seq-remove (lambda (f) (equal (plist-get f :id) own)) (cdr choices)))))
     (list recipe (carrel--read-choice "Format: " (mapcar (lambda (f) (plist-get f :title)) formats)
                                       (plist-get (car formats) :title)))))
  (let* ((project (carrel--project-at-point))
         (choices (carrel--compile-choices project))
         (recipe (carrel--by-title recipe (car choices)))
         (format (carrel--by-title format (cdr choices)))
         (conn (carrel--tree-connection))
         (buffer (current-buffer))
         ;; The token lets the server's progress show in the echo area.
         (result (carrel--execute-params
                  conn (list :command "carrel.compile" :workDoneToken "carrel-emacs-compile"
                             :arguments (vector (list :projectUri (plist-get project :uri)
                                                      :recipe (plist-get recipe :name)
                                                      :format (plist-get format :id))))))
         (path (plist-get result :path)))
    (with-current-buffer buffer
      (carrel--settle conn t)
      (let ((id (carrel--reveal-uri (plist-get result :uri))))
        (carrel--load)
        (carrel--render)
        (when id (carrel--goto-id id))))
    (when (and path (not (eq (plist-get format :pandoc) t)))
      (funcall carrel-visit-function path))
    ;; Asked from the binder, whose connection the submission goes through.
    (with-current-buffer buffer
      (carrel--offer-packet conn result (plist-get project :title)))
    result))

(defun carrel--offer-packet (conn result project-title)
  "Offer to submit what RESULT, a compile's, made, if it is a packet.
Chosen, Submit this packet… submits the pieces compiled (RESULT's
`pieceUris') to a market, with the document as their packet;
dismissed, nothing is sent.  CONN is the binder's connection and
PROJECT-TITLE names the project when it has no market."
  (let ((pieces (append (plist-get result :pieceUris) nil)))
    (when (and (eq (plist-get result :submission) t) pieces
               (equal (condition-case nil
                          (carrel--read-choice (format "Compiled “%s”: "
                                                       (file-name-nondirectory (plist-get result :path)))
                                               '("Submit this packet…"))
                        (quit nil))
                      "Submit this packet…"))
      (carrel--submit-to-market conn pieces (file-name-nondirectory (carrel--uri-to-path (car pieces)))
                                project-title (plist-get result :uri)))))

(defun carrel-set-byline (author contact)
  "Set the byline of the project at point to AUTHOR and CONTACT.
The compiled title page shows them.  AUTHOR is a name, CONTACT the
contact lines separated by |; asked, each holds what the project has
now, and an empty answer clears it."
  (interactive
   (let* ((project (carrel--project-at-point 'byline))
          (options (carrel--request (carrel--tree-connection) 'carrel/compileOptions
                                    (list :projectUri (plist-get project :uri))))
          (byline (plist-get options :byline))
          (author (plist-get byline :author)))
     (list (read-string "Author: " (and (stringp author) author))
           (read-string "Contact lines, separated by |: "
                        (mapconcat #'identity (plist-get byline :contact) " | ")))))
  (let ((project (carrel--project-at-point 'byline))
        (lines (seq-remove #'string-empty-p (mapcar #'string-trim (split-string (or contact "") "|")))))
    (carrel--command t nil "carrel.setByline" :projectUri (plist-get project :uri)
                     :author (string-trim (or author "")) :contact (vconcat lines))))

(defun carrel-toggle-compile ()
  "Leave the file or folder at point out of compile, or include it again.
What the row's `leftOut' says is turned over; its summary then says
\"left out\", or no longer does."
  (interactive)
  (let ((node (carrel--item-at-point)))
    (unless (member (plist-get node :kind) '("file" "folder"))
      (user-error "Only a file or a folder of a project can be left out of compile"))
    (carrel--command (plist-get node :uri) t "carrel.setCompileIncluded"
                     :uri (plist-get node :uri)
                     :included (if (eq (plist-get node :leftOut) t) t :json-false))))

(defun carrel-ask-before-deleting ()
  "Turn \"Ask before deleting\" back on for the project at point.
Outside projects, for the library.  This undoes \"Delete and Don't
Ask Again\".  It never turns asking off: where asking is on, the
server's message says so."
  (interactive)
  (let ((target (or (carrel--nearest (carrel--kind-p "project" "library"))
                    (user-error "Put point on a project or a library"))))
    ;; The answer is the row's new state, and where asking was on already
    ;; no change follows: nothing to wait for.
    (carrel--command nil t "carrel.setConfirmDelete" :uri (plist-get target :uri) :confirm t)))

(defconst carrel--link-update-choices
  '(("always" . "Update them without asking")
    ("ask" . "Ask each time")
    ("never" . "Never update them"))
  "The modes of Link Updates, in the words every Carrel client shows.")

(defun carrel-set-link-updates (mode)
  "Choose what a rename or move does to the links it breaks.
For the project at point, or the library outside projects.  MODE is
\"always\", \"ask\" or \"never\"; interactively, a picker marks the
mode in force \" (now)\"."
  (interactive
   (let* ((target (or (carrel--nearest (carrel--kind-p "project" "library"))
                      (user-error "Put point on a project or a library")))
          (now (or (plist-get target :linkUpdates) "ask"))
          (labels (mapcar (lambda (choice)
                            (cons (concat (cdr choice) (if (equal (car choice) now) " (now)" ""))
                                  (car choice)))
                          carrel--link-update-choices)))
     (list (cdr (assoc (carrel--read-choice
                        (format "When a move breaks links in “%s”: " (plist-get target :title))
                        labels (car (rassoc now labels)))
                       labels)))))
  (unless (assoc mode carrel--link-update-choices)
    (user-error "Unknown mode: %s" mode))
  (let ((target (or (carrel--nearest (carrel--kind-p "project" "library"))
                    (user-error "Put point on a project or a library"))))
    (carrel--command nil t "carrel.setLinkUpdates" :uri (plist-get target :uri) :mode mode)))

(defun carrel-refresh (&rest _)
  "Fetch the shown rows from the server again, keeping expansion and point."
  (interactive)
  (let ((shown nil))
    (carrel--walk (lambda (id _depth)
                    (when (and (gethash id carrel--expanded) (carrel--loaded-p id)
                               (not (equal (carrel--kind id) "section")))
                      (push id shown))))
    (carrel--fetch-roots)
    (dolist (id (nreverse shown))
      (when (and (gethash id carrel--rows) (carrel--visible-p id))
        (carrel--fetch id))))
  (carrel--load)
  (carrel--render))

(defun carrel-up ()
  "Move point to the parent of the row at point."
  (interactive)
  (let ((parent (gethash (carrel--row-id) carrel--parents)))
    (unless (and parent (carrel--goto-id parent))
      (user-error "Already at the top"))))

(defun carrel-collapse-all ()
  "Collapse every row, leaving the top rows open."
  (interactive)
  (setq carrel--expanding-all nil)
  (clrhash carrel--expanded)
  (dolist (id carrel--root-ids)
    (puthash id t carrel--expanded)
    (dolist (kid (gethash id carrel--kids)) (carrel--forget-below kid)))
  (carrel--render))

(defun carrel-expand-all ()
  "Expand every row below the row at point, or everything at the top.
Each project's \"All\" stays as it is.  Rows are fetched a level at
a time while you keep working."
  (interactive)
  (let ((top (if (member (carrel--row-id) carrel--root-ids) nil (carrel--row-id))))
    (setq carrel--expanding-all (if top (list top) (copy-sequence carrel--root-ids)))
    (maphash (lambda (id node)
               (when (carrel--expands-all-p id node)
                 (puthash id t carrel--expanded)))
             carrel--rows)
    (setq carrel--opened (carrel--row-id))
    (let ((specs (delete-dups (delq nil (mapcar #'carrel--fetch-spec (carrel--unloaded))))))
      (unless specs
        ;; Everything below was held already: expanding all is done now,
        ;; not left to expand whatever a later change brings.
        (setq carrel--expanding-all nil))
      (carrel--render)
      (when specs
        (carrel--fetch-async specs)))))

;;;; Undo and redo

(defun carrel--take-back (command)
  "Send COMMAND, `carrel.undo' or `carrel.redo', for the library at point.
That is the library of the row at point.  The server says what it
took back; point goes to the item it names."
  (let* ((row (carrel--nearest (lambda (node) (plist-get node :uri))))
         (conn (carrel--tree-connection))
         (result (apply #'carrel--command :report nil command
                        (and row (list :library (plist-get row :uri)))))
         ;; With nothing to take back the answer is the library, and point stays.
         (id (and (gethash :any (carrel--seen conn)) (plist-get result :uri)
                  (carrel--reveal-uri (plist-get result :uri)))))
    (when id
      (carrel--load)
      (carrel--render)
      (carrel--goto-id id))
    result))

(defun carrel-undo ()
  "Take back the last rename, move, delete or other change made in this library.
Made on this device, by any editor or the command line; the server
says what it took back."
  (interactive)
  (carrel--take-back "carrel.undo"))

(defun carrel-redo ()
  "Do again what `carrel-undo' last took back."
  (interactive)
  (carrel--take-back "carrel.redo"))

;;;; Snapshots

(defconst carrel--compare-choice "Compare with the current text"
  "The choice of a snapshot that shows it beside the file in ediff.")

(defconst carrel--roll-back-choice "Roll back to this snapshot"
  "The choice of a snapshot that gives the file its text again.")

(defun carrel--pick (prompt rows label)
  "Ask PROMPT among ROWS, each shown as LABEL gives it; return the row chosen.
Return nil when nothing was chosen.  A label shown twice is numbered,
so that every row can be chosen."
  (let ((seen (make-hash-table :test #'equal))
        (choices nil))
    (dolist (row rows)
      (let* ((text (funcall label row))
             (count (puthash text (1+ (gethash text seen 0)) seen)))
        (push (cons (if (> count 1) (format "%s (%d)" text count) text) row) choices)))
    (setq choices (nreverse choices))
    (cdr (assoc (carrel--read-choice prompt (mapcar #'car choices)) choices))))

(defun carrel--snapshot-label (snapshot)
  "Return the row of SNAPSHOT: its date, its title if any, its words."
  (string-join (delq nil (list (plist-get snapshot :date)
                               (plist-get snapshot :title)
                               (format "%s words" (plist-get snapshot :words))))
               " · "))

(defun carrel-snapshot (title)
  "Take a snapshot of the file at point, titled TITLE; empty means no title.
On a folder or a project, the server takes one of each file in it."
  (interactive (progn (carrel--item-at-point)
                      (list (read-string "Snapshot title (optional): "))))
  (let ((uri (plist-get (carrel--item-at-point) :uri))
        (title (string-trim (or title ""))))
    (apply #'carrel--command :report nil "carrel.snapshot" :uri uri
           (unless (string-empty-p title) (list :title title)))))

(defun carrel-snapshots ()
  "List the snapshots of the file at point; compare one, or roll back to it.
Comparing shows the snapshot, read-only, beside the file in ediff,
and the server's count of words added and removed."
  (interactive)
  (let* ((node (carrel--item-at-point))
         (title (plist-get node :title))
         (uri (plist-get node :uri))
         (conn (carrel--tree-connection))
         (snapshots (append (plist-get (carrel--execute conn "carrel.snapshots" :uri uri) :snapshots) nil)))
    (if (null snapshots)
        (message "“%s” has no snapshots yet." title)
      (let* ((snapshot (carrel--pick (format "Snapshots of “%s”: " title) snapshots
                                     #'carrel--snapshot-label))
             (action (and snapshot
                          (carrel--read-choice (format "Snapshot of %s: " (plist-get snapshot :date))
                                               (list carrel--compare-choice carrel--roll-back-choice)))))
        (cond
         ((equal action carrel--compare-choice) (carrel--compare-snapshot conn uri snapshot))
         ((equal action carrel--roll-back-choice) (carrel--roll-back uri snapshot)))))))

(defun carrel--compare-snapshot (conn uri snapshot)
  "Show SNAPSHOT of the file URI beside it in ediff, through CONN."
  (require 'ediff)
  (let* ((result (carrel--execute conn "carrel.compareSnapshot" :uri uri :snapshot (plist-get snapshot :name)))
         (copy (plist-get result :snapshot))
         (old (or (plist-get copy :path) (carrel--uri-to-path (plist-get copy :uri)))))
    ;; A snapshot is no document of the writer's: the server is not given
    ;; its text, and it is never edited.
    (with-current-buffer (let ((find-file-hook (remq #'carrel--attach-links find-file-hook)))
                           (find-file-noselect old))
      (setq buffer-read-only t))
    (ediff-files old (carrel--uri-to-path uri))
    (message "%s" (plist-get result :summary))))

(defun carrel--roll-back (uri snapshot)
  "Give the file URI the text of SNAPSHOT; reload its buffer if unmodified.
The server first keeps the text it replaces as a snapshot."
  (carrel--command :report nil "carrel.rollBack" :uri uri :snapshot (plist-get snapshot :name))
  (let ((buffer (find-buffer-visiting (carrel--uri-to-path uri))))
    (when (and buffer (not (buffer-modified-p buffer)))
      (with-current-buffer buffer
        (revert-buffer t t t)))))

;;;; Submissions

(defconst carrel--withdraw-choice "Withdraw it everywhere else"
  "The choice of an accepted piece that withdraws it from every other market.")

(defconst carrel--market-roles '("magazines" "competitions" "commissions" "other")
  "The roles of the permanent folders whose folders are markets.")

(defconst carrel--market-questions
  '((:deadline "Deadline (YYYY-MM-DD, empty for none): ")
    (:readingPeriod "Reading period: ")
    (:fee "Fee: ")
    (:url "URL: ")
    (:simultaneous "Simultaneous submissions (yes/no): ")
    (:notes "Notes: "))
  "The details of a market, in the order they are asked.")

(defun carrel--pieces-at-point ()
  "Return the rows to submit: those of the active region, else the one at point."
  (if (not (use-region-p))
      (let ((node (carrel--item-at-point)))
        (unless (equal (plist-get node :kind) "file")
          (user-error "“%s” is not a file: put the cursor on the piece to submit"
                      (or (plist-get node :title) (plist-get node :name))))
        (list node))
    (let ((end (region-end))
          (rows nil))
      (save-excursion
        (goto-char (region-beginning))
        (while (and (< (line-beginning-position) end) (not (eobp)))
          (let ((node (carrel--node (carrel--row-id))))
            (when (equal (plist-get node :kind) "file") (push node rows)))
          (forward-line 1)))
      (or (nreverse rows) (user-error "No file in the region")))))

(defun carrel-submit ()
  "Record that the file at point went to a market, on a day asked.
Today is offered as the day.  With an active region, its files
went together.  The markets are the folders of the project's
Magazines, Competitions, Commissions and Other."
  (interactive)
  (let ((pieces (carrel--pieces-at-point)))
    (carrel--submit-to-market (carrel--tree-connection) (mapcar (lambda (piece) (plist-get piece :uri)) pieces)
                              (plist-get (car pieces) :title)
                              (plist-get (or (carrel--nearest (carrel--kind-p "project")) (car pieces)) :title))))

(defun carrel--submit-to-market (conn uris name project-title &optional packet)
  "Ask a market and the day sent, then submit URIS together through CONN.
NAME is the first piece's, PROJECT-TITLE says whose markets are
missing, PACKET is the URI of the compiled document they went in."
  (let ((markets (carrel--destinations conn (car uris) "submit")))
    (if (null markets)
        (message "“%s” has no market yet: make a folder in Magazines, Competitions, Commissions or Other."
                 project-title)
      (let* ((market (cdr (assoc (carrel--read-choice
                                  (if (cdr uris)
                                      (format "Submit %d pieces to: " (length uris))
                                    (format "Submit “%s” to: " name))
                                  (mapcar #'car markets))
                                 markets)))
             (date (and market (string-trim (read-string "Date sent (YYYY-MM-DD): "
                                                         (format-time-string "%Y-%m-%d"))))))
        (when market
          (deactivate-mark)
          (apply #'carrel--command :report nil "carrel.submit"
                 :items (vconcat uris)
                 :marketUri market
                 (append (unless (string-empty-p date) (list :date date))
                         (and packet (list :packetUri packet)))))))))

(defun carrel--submission-label (row)
  "Return the Submissions picker's line of ROW, a (SUBMISSION . PIECE)."
  (format "%s · %s · %s · %s"
          (plist-get (cdr row) :title)
          (plist-get (plist-get (car row) :market) :name)
          (plist-get (car row) :sent)
          (file-name-nondirectory (plist-get (cdr row) :path))))

(defun carrel-submissions ()
  "List the submissions of the row at point and set a piece's status at its market.
A file's are its history, a market's what it holds, a project's (or
its Submissions folder's) all of the project's.  An accepted piece
can also be withdrawn from every other market where it is out."
  (interactive)
  (let* ((node (carrel--item-at-point))
         (scope (cond
                 ((equal (plist-get node :kind) "library") nil)
                 ((equal (plist-get node :role) "submissions")
                  (plist-get (carrel--nearest (carrel--kind-p "project")) :uri))
                 (t (plist-get node :uri))))
         (listed (plist-get (carrel--request (carrel--tree-connection) 'carrel/submissions
                                             (if scope (list :uri scope) (make-hash-table)))
                            :submissions))
         (rows (cl-loop for submission across listed
                        append (cl-loop for piece across (plist-get submission :pieces)
                                        collect (cons submission piece)))))
    (if (null rows)
        (message "No submissions yet.")
      (let ((row (carrel--pick "Submissions: " rows #'carrel--submission-label)))
        (when row (carrel--set-status (car row) (cdr row)))))))

(defun carrel--set-status (submission piece)
  "Ask the status of PIECE in SUBMISSION among the server's, and send it.
For an accepted piece, also offer to withdraw it everywhere else."
  (let* ((current (plist-get piece :status))
         (choices (mapcar (lambda (status)
                            (cons (if (equal (plist-get status :id) current)
                                      (concat (plist-get status :title) " (now)")
                                    (plist-get status :title))
                                  (plist-get status :id)))
                          (append (plist-get (carrel--experimental (carrel--tree-connection) :submissions)
                                             :statuses)
                                  nil)))
         (choices (if (equal current "accepted")
                      (append choices (list (cons carrel--withdraw-choice 'withdraw)))
                    choices))
         (answer (cdr (assoc (carrel--read-choice
                              (format "“%s” at “%s”: " (file-name-nondirectory (plist-get piece :path))
                                      (plist-get (plist-get submission :market) :name))
                              (mapcar #'car choices))
                             choices)))
         (record (plist-get submission :id))
         (key (plist-get piece :key)))
    (cond
     ((eq answer 'withdraw)
      (carrel--command :report nil "carrel.withdrawOthers" :record record :piece key))
     (answer
      (carrel--command :report nil "carrel.setSubmissionStatus" :record record :piece key :status answer)))))

(defun carrel--yes-or-no (answer)
  "Return t for a yes in ANSWER, the JSON false for a no, else ANSWER.
Anything else goes as typed: the server's refusal says what it expects."
  (pcase (downcase answer)
    ((or "yes" "y") t)
    ((or "no" "n") :json-false)
    (_ answer)))

(defun carrel--market-prefill (value)
  "Return the text the question of the market detail VALUE begins with."
  (pcase value
    ('t "yes")
    (:json-false "no")
    ((pred stringp) value)
    (_ "")))

(defun carrel-set-market ()
  "Set the details of the market at point: deadline, reading period, fee and more.
Each question holds the market's value: an answer left as it was is not
sent, an emptied one clears that detail; \[keyboard-quit] at any
question sends nothing."
  (interactive)
  (let ((id (carrel--row-id)))
    (if (not (and id (equal (carrel--kind id) "folder")
                  (member (plist-get (carrel--node (gethash id carrel--parents)) :role)
                          carrel--market-roles)))
        (message "Market details are kept on a folder in Magazines, Competitions, Commissions or Other.")
      (let* ((uri (plist-get (carrel--node id) :uri))
             (details (carrel--request (carrel--tree-connection) 'carrel/market (list :uri uri)))
             (fields nil))
        ;; Only what the writer changed goes: a detail another machine
        ;; changed meanwhile keeps that change.  nil is sent as null.
        (dolist (question carrel--market-questions)
          (let* ((prefill (carrel--market-prefill (plist-get details (car question))))
                 (answer (string-trim (read-string (cadr question) prefill))))
            (unless (equal answer prefill)
              (setq fields (plist-put fields (car question)
                                      (cond ((string-empty-p answer) nil)
                                            ((eq (car question) :simultaneous) (carrel--yes-or-no answer))
                                            (t answer)))))))
        (carrel--command :report nil "carrel.setMarket" :uri uri
                         :fields (or fields (make-hash-table)))))))

(defconst carrel--keys-help
  "\\<carrel-tree-mode-map>Keys of the Carrel binder:

RET, TAB	open the file, or expand or collapse the folder;
	on \"No project yet\", New Project
\\[carrel-expand-all] \\[carrel-collapse-all]	expand all, collapse all
\\[carrel-new-file]	New File
A, +	New Folder
\\[carrel-new-project]	New Project
r, R	Rename
\\[carrel-move]	Move To
\\[carrel-duplicate]	Duplicate
\\[carrel-delete]	Delete
\\[carrel-restore]	Restore
\\[carrel-empty-trash]	Empty Trash
\\[carrel-sort]	Sort
M-p, M-<up>	Move Up among the siblings
M-n, M-<down>	Move Down among the siblings
\\[carrel-set-target]	Set Word Target (empty clears it)
\\[carrel-compile]	Compile…: a recipe, then a format; a packet offers Submit this packet…
\\[carrel-toggle-compile]	Leave out of compile / Include in compile
\\[carrel-set-byline]	Set byline…: the project's author, then its contact lines
U, C-/, C-x u	Undo the last change made in this library
C-?	Redo
\\[carrel-snapshot]	Take a snapshot (of each file, on a folder)
\\[carrel-snapshots]	Snapshots of the file: compare one, or roll back to it
\\[carrel-submit]	Submit the file (or the region's files) to a market
\\[carrel-submissions]	Submissions: set a piece's status, withdraw it elsewhere
\\[carrel-set-market]	Market details of the market at point
\\[carrel-refresh]	Refresh
\\[carrel-up]	up to the parent row
\\[carrel-help]	these keys
\\[quit-window]	close the binder
\\[carrel-ask-before-deleting]	Ask before deleting again
\\[carrel-set-link-updates]	Link Updates…
"
  "The text of `carrel-help', for `substitute-command-keys'.")

(defun carrel-help ()
  "Show the binder's keys in a window."
  (interactive)
  (with-help-window "*Carrel keys*"
    (princ (substitute-command-keys carrel--keys-help))))

(defvar carrel-tree-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'carrel-open)
    (define-key map (kbd "TAB") #'carrel-open)
    (define-key map "a" #'carrel-new-file)
    (define-key map "A" #'carrel-new-folder)
    (define-key map "+" #'carrel-new-folder)
    (define-key map "P" #'carrel-new-project)
    (define-key map "r" #'carrel-rename)
    (define-key map "R" #'carrel-rename)
    (define-key map "m" #'carrel-move)
    (define-key map "D" #'carrel-duplicate)
    (define-key map "d" #'carrel-delete)
    (define-key map "u" #'carrel-restore)
    (define-key map "E" #'carrel-empty-trash)
    (define-key map "s" #'carrel-sort)
    (define-key map (kbd "M-p") #'carrel-move-up)
    (define-key map (kbd "M-n") #'carrel-move-down)
    (define-key map (kbd "M-<up>") #'carrel-move-up)
    (define-key map (kbd "M-<down>") #'carrel-move-down)
    (define-key map "T" #'carrel-set-target)
    (define-key map "C" #'carrel-compile)
    (define-key map "X" #'carrel-toggle-compile)
    (define-key map "B" #'carrel-set-byline)
    (define-key map "U" #'carrel-undo)
    (define-key map [remap undo] #'carrel-undo)
    (define-key map (kbd "C-?") #'carrel-redo)
    (define-key map [remap undo-redo] #'carrel-redo)
    (define-key map "S" #'carrel-snapshot)
    (define-key map "H" #'carrel-snapshots)
    (define-key map "O" #'carrel-submit)
    (define-key map "I" #'carrel-submissions)
    (define-key map "M" #'carrel-set-market)
    (define-key map "g" #'carrel-refresh)
    (define-key map "^" #'carrel-up)
    (define-key map "?" #'carrel-help)
    (define-key map "q" #'quit-window)
    (define-key map "<" #'carrel-collapse-all)
    (define-key map ">" #'carrel-expand-all)
    (define-key map "n" #'next-line)
    (define-key map "p" #'previous-line)
    map)
  "Keymap of `carrel-tree-mode'.")

(define-derived-mode carrel-tree-mode special-mode "Carrel"
  "Major mode of the Carrel binder: libraries, projects, sections, folders, files.

Each row shows an icon (see `carrel-icon-style'), a title and how
many files lie inside, as the server words it.  The header line
shows where point is, as Library › Project › Folder.  The tree
follows every change on disk, whatever made it, fetching only the
open folders a change touches.

\\{carrel-tree-mode-map}"
  (setq carrel--rows (carrel--id-table))
  (setq carrel--kids (carrel--id-table))
  (setq carrel--parents (carrel--id-table))
  (setq carrel--expanded (carrel--id-table))
  (setq carrel--in-flight (carrel--id-table))
  (setq carrel--waiters (carrel--id-table))
  (setq carrel--gathering (carrel--id-table))
  (setq carrel--projects-seen (carrel--id-table))
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
               (or directory (carrel--guess-root) (carrel--read-root))
               t)))
    (pop-to-buffer (carrel--tree-buffer conn t))))

;;;###autoload
(defcustom carrel-preload-at-startup t
  "Whether Emacs preloads the binder when it starts in a Carrel library.
When non-nil, once Emacs has started, `carrel-preload' runs if
`carrel-library-directory' is set or a folder around the one Emacs
started in is, or holds, a Carrel project: \[carrel] then shows
the binder at once.  Elsewhere nothing starts, and this package is
not even loaded."
  :type 'boolean)

;; Defined in full in the autoloads, not as an autoload: loading this
;; package takes half a second on a busy machine, and most of the
;; folders Emacs starts in hold no library.  It only looks for a
;; project, as `carrel-preload' will do in full once loaded.
;;;###autoload
(defalias 'carrel--preload-at-startup
  (lambda ()
    (when (and carrel-preload-at-startup
               (not (file-remote-p default-directory))
               (or (bound-and-true-p carrel-library-directory)
                   (locate-dominating-file
                    default-directory
                    (lambda (dir)
                      (or (file-exists-p (expand-file-name ".carrel/project.json" dir))
                          (catch 'found
                            (dolist (child (ignore-errors (directory-files dir t "\\`[^.]" t)))
                              (when (file-exists-p (expand-file-name ".carrel/project.json" child))
                                (throw 'found t)))))))))
      (carrel-preload)))
  "Run `carrel-preload' if `carrel-preload-at-startup' and a library say so.")

;;;###autoload
(add-hook 'emacs-startup-hook #'carrel--preload-at-startup)

;;;###autoload
(defun carrel-preload ()
  "Start the Carrel server and fetch the binder in the background.
Then `carrel' shows the binder at once, without waiting for the
server.  The library is the one `carrel' would open: an open
library around the current directory, else
`carrel-library-directory', else the folder that holds the Carrel
project you are in, else the current directory.  Nothing happens
unless that folder, or a folder directly in it, is a Carrel
project, nor when its server already runs, so this can run at
every start of Emacs, in any folder; it does, by default, where a
library is (see `carrel-preload-at-startup').

The binder's buffer is filled and kept up to date, but not shown.
Nothing waits for the server: the answers are read as they come."
  (interactive)
  (let ((root (carrel--preload-root)))
    (when (and root
               (not (carrel--connection-for root))
               (carrel--holds-project-p root))
      (condition-case err
          (carrel--start-async
           root (lambda (conn)
                  (with-current-buffer (carrel--new-tree-buffer conn)
                    (carrel--fetch-first-view-async)))
           t)
        ;; Said as a failed `carrel' says it, without stopping the
        ;; startup hook that may be running this.
        (user-error (message "%s" (error-message-string err)))))))

(defun carrel--preload-root ()
  "Return the library that `carrel-preload' fetches, or nil.
That is the library `carrel' would open here, else the current
directory, which `carrel' would offer."
  (unless (file-remote-p default-directory)
    (directory-file-name (expand-file-name (or (carrel--guess-root) default-directory)))))

(defun carrel--real-directory-p (path)
  "Return non-nil if PATH is a directory itself, not a link to one."
  (eq t (file-attribute-type (ignore-errors (file-attributes path)))))

(defun carrel--project-marker-p (dir)
  "Return non-nil if DIR/.carrel/project.json is a plain file.
A link, a folder or a pipe there, or a link on the way, does not
count; nothing is opened."
  (let* ((dot (expand-file-name ".carrel" dir))
         (attributes (and (carrel--real-directory-p dot)
                          (ignore-errors
                            (file-attributes (expand-file-name "project.json" dot))))))
    (and attributes (string-prefix-p "-" (file-attribute-modes attributes)))))

(defun carrel--holds-project-p (folder)
  "Return non-nil if FOLDER, or a folder directly in it, is a Carrel project.
One listing of FOLDER and one look at each entry, nothing deeper:
this runs at startup in folders as large as a home folder.  Links
and hidden folders are passed over, as the server passes them over."
  (or (carrel--project-marker-p folder)
      (seq-some (lambda (child)
                  (and (carrel--real-directory-p child) (carrel--project-marker-p child)))
                (ignore-errors (directory-files folder t "\\`[^.]" t)))))

(defun carrel--file-uri ()
  "Return the URI of the visited file, or signal a user error."
  (unless buffer-file-name
    (user-error "This buffer is not visiting a file"))
  (carrel--path-to-uri buffer-file-name))

(defun carrel--file-command (conn command &rest arguments)
  "Run COMMAND with ARGUMENTS through the connection CONN, for the visited file.
The tree, when shown, settles as after a command in it."
  (let ((tree (carrel--tree-buffer conn)))
    (if tree
        (with-current-buffer tree
          (carrel--await-first-view)
          (apply #'carrel--command (lambda (result) (plist-get result :uri)) nil command arguments))
      (apply #'carrel--execute conn command arguments))))

;;;###autoload
(defun carrel-rename-file (new-name)
  "Rename the visited file to NEW-NAME through Carrel.
The file keeps its extension when NEW-NAME has none."
  (interactive
   (list (progn (carrel--file-connection)
                (read-string "Rename to: " (file-name-nondirectory
                                            (or buffer-file-name ""))))))
  (let ((uri (carrel--file-uri)))
    ;; Unchanged: nothing to send, nor a change to wait for.
    (unless (equal new-name (file-name-nondirectory buffer-file-name))
      (carrel--follow-result
       uri (carrel--file-command (carrel--file-connection) "carrel.rename"
                                 :uri uri :newName new-name)))))

;;;###autoload
(defun carrel-move-file ()
  "Move the visited file to another folder of its Carrel library."
  (interactive)
  (let* ((conn (carrel--file-connection))
         (uri (carrel--file-uri))
         (destination (carrel--read-destination conn uri
                                                (file-name-nondirectory buffer-file-name)))
         (result (carrel--file-command conn "carrel.moveTo" :uri uri
                                       :destinationUri destination)))
    (carrel--follow-result uri result)))

;;;###autoload
(defun carrel-delete-file ()
  "Move the visited file to its project's Trash; the server asks first."
  (interactive)
  (let* ((conn (carrel--file-connection))
         (uri (carrel--file-uri))
         (result (carrel--file-command conn "carrel.delete" :uri uri)))
    (carrel--follow-result uri result)))

;;;###autoload
(defun carrel-reveal ()
  "Show the visited file in the Carrel tree, expanding the folders above it."
  (interactive)
  (let* ((conn (carrel--file-connection))
         (uri (carrel--file-uri))
         (buffer (carrel--tree-buffer conn t)))
    (pop-to-buffer buffer)
    (let ((id (or (carrel--reveal-uri uri)
                  (user-error "“%s” is not in the Carrel binder"
                              (file-name-nondirectory (carrel--uri-to-path uri))))))
      (carrel--load)
      (carrel--render)
      (carrel--goto-id id))))

;;;; Links in the writer's files

(defconst carrel--linked-extensions '("md" "markdown" "mdown" "mkd" "fountain" "spmd")
  "Extensions of the files whose links the server follows: Markdown, Fountain.")

(defvar-local carrel--document nil
  "Where the server holds this buffer's text: (CONNECTION . URI), or nil.
The URI is the one the buffer was opened under, which edits the
server sends name even after the file moved.")

(defvar-local carrel--document-version 0
  "The version of this buffer's text the server last got.")

(defvar-local carrel--document-stale nil
  "Non-nil when this buffer changed since its text was last sent.")

(defvar-local carrel--diagnostics nil
  "The server's diagnostics for this buffer, as last published.")

(defvar-local carrel--flymake-report nil
  "The function Flymake gave `carrel--flymake' to report with.")

(defvar carrel--flush-timer nil
  "The idle timer that sends changed buffers' text, while one is set.")

(defun carrel--linked-file-p (file)
  "Return non-nil when FILE is Markdown or Fountain, whose links Carrel knows."
  (and file (member (downcase (or (file-name-extension file) "")) carrel--linked-extensions)))

(define-minor-mode carrel-links-mode
  "Follow the links of a Markdown or Fountain file of a Carrel library.
The server gets the buffer's text, unsaved edits too, so that
\\[xref-find-definitions] on a link visits what it leads to,
\\[xref-find-references] lists the links to this file from the
whole library, Flymake marks links that lead nowhere, and a rename
or move through Carrel can update this buffer's links without
saving it.  It turns itself on in the library's files once its
server runs."
  :lighter nil
  (if carrel-links-mode
      (if (carrel--linked-file-p buffer-file-name)
          (carrel--open-document (carrel--file-connection))
        (setq carrel-links-mode nil)
        (user-error "Carrel follows the links of Markdown and Fountain files only"))
    (carrel--close-document)))

(defun carrel--attach-links ()
  "Turn on `carrel-links-mode' here when the server of this file's library is up.
A buffer whose server stopped is given to the new one."
  (when (and (not (and carrel-links-mode carrel--document
                       (jsonrpc-running-p (car carrel--document))))
             (carrel--linked-file-p buffer-file-name))
    (let ((conn (carrel--connection-for buffer-file-name)))
      (when (and conn (not (carrel--starting conn)) (not (carrel--closing conn)))
        (carrel-links-mode 1)))))

(defun carrel--attach-all (conn)
  "Give CONN's server the text of its library's open files.
Files visited later are given too, as they are visited."
  (add-hook 'find-file-hook #'carrel--attach-links)
  (add-hook 'after-change-major-mode-hook #'carrel--after-major-mode)
  (dolist (buffer (buffer-list))
    (let ((file (buffer-file-name buffer)))
      (when (and file (carrel--path-under-p (expand-file-name file) (carrel--root conn)))
        (with-current-buffer buffer (carrel--attach-links))))))

(defun carrel--buffer-text ()
  "Return the whole text of this buffer, narrowed or not."
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun carrel--open-document (conn)
  "Tell CONN's server this buffer is open, with its text."
  (let ((uri (carrel--path-to-uri buffer-file-name)))
    (setq carrel--document (cons conn uri)
          carrel--document-version 1
          carrel--document-stale nil)
    (jsonrpc-notify conn 'textDocument/didOpen
                    (list :textDocument
                          (list :uri uri :version 1 :text (carrel--buffer-text)
                                :languageId (if (member (downcase (file-name-extension buffer-file-name))
                                                        '("fountain" "spmd"))
                                                "fountain"
                                              "markdown"))))
    (carrel--set-up-buffer)))

(defun carrel--set-up-buffer ()
  "Send this buffer's edits to the server; answer xref and Flymake from it."
  (add-hook 'after-change-functions #'carrel--document-changed nil t)
  (add-hook 'kill-buffer-hook #'carrel--close-document nil t)
  ;; Saved text the server has not seen would count as unsaved.
  (add-hook 'after-save-hook #'carrel--flush-documents nil t)
  (add-hook 'xref-backend-functions #'carrel--xref-backend nil t)
  (require 'flymake)
  ;; Eglot's own backend already reports the server's warnings there.
  (unless (bound-and-true-p eglot--managed-mode)
    (add-hook 'flymake-diagnostic-functions #'carrel--flymake nil t))
  ;; Emacs's legacy backend has nothing to check in prose, and says so
  ;; in a warning for every buffer it is asked about.
  (setq-local flymake-diagnostic-functions
              (seq-mapcat (lambda (backend)
                            (if (eq backend t)
                                (remq 'flymake-proc-legacy-flymake
                                      (default-value 'flymake-diagnostic-functions))
                              (list backend)))
                          flymake-diagnostic-functions))
  ;; Turning it on again would forget the backends' state, and with it
  ;; the function `carrel--flymake' reports with.
  (unless (bound-and-true-p flymake-mode)
    (flymake-mode 1)))

;; A new major mode (the writer's, or one a rename picks) kills a buffer's
;; local variables; these say what the server holds for it, so they stay,
;; and `carrel--after-major-mode' sets the buffer up again.
(dolist (variable '(carrel-links-mode carrel--document carrel--document-version
                                      carrel--document-stale carrel--diagnostics))
  (put variable 'permanent-local t))

(defun carrel--after-major-mode ()
  "Set this buffer up again after a new major mode, if the server has its text."
  (when carrel--document
    (setq carrel--flymake-report nil)
    (carrel--set-up-buffer)))

(defun carrel--send-close ()
  "Tell the server this buffer's text no longer stands for its file."
  (when carrel--document
    (let ((conn (car carrel--document)))
      (when (and (jsonrpc-running-p conn) (not (carrel--closing conn)))
        (jsonrpc-notify conn 'textDocument/didClose
                        (list :textDocument (list :uri (cdr carrel--document))))))))

(defun carrel--close-document ()
  "Tell the server this buffer is closed; forget its diagnostics."
  (carrel--send-close)
  (setq carrel--document nil
        carrel--document-stale nil
        carrel--diagnostics nil)
  (remove-hook 'after-change-functions #'carrel--document-changed t)
  (remove-hook 'kill-buffer-hook #'carrel--close-document t)
  (remove-hook 'after-save-hook #'carrel--flush-documents t)
  (remove-hook 'xref-backend-functions #'carrel--xref-backend t)
  (remove-hook 'flymake-diagnostic-functions #'carrel--flymake t)
  (carrel--flymake-report)
  (setq carrel--flymake-report nil))

(defun carrel--reopen-document ()
  "Tell the server this buffer's file moved.
It is closed at its old URI and opened at its new one."
  (when carrel--document
    (let ((conn (car carrel--document)))
      ;; Only the server is told: the buffer keeps its hooks and Flymake
      ;; its state, so the warnings for the new name replace the old.
      (carrel--send-close)
      (if (jsonrpc-running-p conn)
          (carrel--open-document conn)
        (carrel--close-document)))))

(defun carrel--document-changed (&rest _)
  "Note that this buffer's text changed; send it once Emacs is idle."
  (setq carrel--document-stale t)
  (unless carrel--flush-timer
    (setq carrel--flush-timer (run-with-idle-timer 0.3 nil #'carrel--flush-documents))))

(defun carrel--flush-documents ()
  "Send the text of every buffer changed since it was last sent.
Before each request too, so the server answers about the text the
writer sees, and edits it sends are made on that text."
  (when carrel--flush-timer
    (cancel-timer carrel--flush-timer)
    (setq carrel--flush-timer nil))
  (dolist (buffer (buffer-list))
    (when (buffer-local-value 'carrel--document-stale buffer)
      (with-current-buffer buffer
        (setq carrel--document-stale nil)
        (let ((conn (car carrel--document)))
          (when (and conn (jsonrpc-running-p conn) (not (carrel--closing conn)))
            (setq carrel--document-version (1+ carrel--document-version))
            (jsonrpc-notify conn 'textDocument/didChange
                            (list :textDocument (list :uri (cdr carrel--document)
                                                      :version carrel--document-version)
                                  :contentChanges (vector (list :text (carrel--buffer-text)))))))))))

(defun carrel--document-buffer (uri)
  "Return the live buffer whose text the server has under URI, or nil."
  (seq-find (lambda (buffer) (equal (cdr (buffer-local-value 'carrel--document buffer)) uri))
            (buffer-list)))

;;;;; Positions

;; LSP counts a line's characters in UTF-16 code units; Emacs in characters.

(defun carrel--lsp-position (position)
  "Return the buffer position of the LSP POSITION, or nil if the text has none."
  (let ((line (plist-get position :line))
        (units (plist-get position :character)))
    (when (and (natnump line) (natnump units))
      (save-excursion
        (save-restriction
          (widen)
          (goto-char (point-min))
          (when (and (zerop (forward-line line)) (bolp))
            (let ((eol (line-end-position)))
              (while (and (> units 0) (< (point) eol))
                (setq units (- units (if (> (char-after) #xFFFF) 2 1)))
                (forward-char 1))
              (and (zerop units) (point)))))))))

(defun carrel--point-position (&optional pos)
  "Return POS, or point, as an LSP position."
  (save-excursion
    (save-restriction
      (widen)
      (when pos (goto-char pos))
      (list :line (1- (line-number-at-pos nil t))
            :character (/ (length (encode-coding-string
                                   (buffer-substring-no-properties (line-beginning-position) (point))
                                   'utf-16le))
                          2)))))

;;;;; Edits the server sends

(defun carrel--apply-edit (params)
  "Apply the `workspace/applyEdit' PARAMS to open buffers; return the answer.
Every edit is checked before any is made, so a buffer is edited
only when all of them can be.  Each buffer's edits are one undo
step, and nothing is saved: an unsaved buffer stays unsaved."
  (let ((plans nil) (failure nil)
        (changes (plist-get (plist-get params :edit) :changes)))
    (while (and changes (not failure))
      (let* ((uri (substring (symbol-name (pop changes)) 1))
             (edits (append (pop changes) nil))
             (buffer (or (carrel--document-buffer uri)
                         (find-buffer-visiting (carrel--uri-to-path uri))))
             (name (file-name-nondirectory (carrel--uri-to-path uri))))
        (cond
         ((not buffer) (setq failure (format "“%s” is not open in Emacs" name)))
         ((buffer-local-value 'buffer-read-only buffer)
          (setq failure (format "“%s” is read-only" name)))
         (t
          (with-current-buffer buffer
            (let ((spans (mapcar (lambda (edit)
                                   (let ((range (plist-get edit :range)))
                                     (list (carrel--lsp-position (plist-get range :start))
                                           (carrel--lsp-position (plist-get range :end))
                                           (plist-get edit :newText))))
                                 edits)))
              (if (seq-some (lambda (span) (not (and (car span) (cadr span) (<= (car span) (cadr span))
                                                     (stringp (nth 2 span)))))
                            spans)
                  (setq failure (format "“%s” no longer holds the text the edits were made on" name))
                (push (cons buffer spans) plans))))))))
    (if failure
        (list :applied :json-false :failureReason failure)
      (dolist (plan plans)
        (with-current-buffer (car plan)
          (carrel--edit-buffer (cdr plan))))
      (list :applied t))))

(defun carrel--edit-buffer (spans)
  "Replace each (START END TEXT) of SPANS in this buffer, as one undo step."
  (let ((group (prepare-change-group))
        ;; From the end, so each edit leaves the positions before it true.
        (spans (sort spans (lambda (a b) (> (car a) (car b))))))
    ;; Its own undo step, apart from the writer's typing before and after.
    (undo-boundary)
    (unwind-protect
        (save-excursion
          (save-restriction
            (widen)
            (activate-change-group group)
            (dolist (span spans)
              (goto-char (car span))
              (delete-region (car span) (cadr span))
              (insert (nth 2 span)))))
      (accept-change-group group)
      (undo-amalgamate-change-group group)
      (undo-boundary))))

;;;;; Going to a link's target, and back

(defun carrel--xref-backend ()
  "The xref backend of buffers whose links Carrel follows."
  ;; Once its server stopped, the next backend (etags, eglot) answers.
  (and carrel--document (jsonrpc-running-p (car carrel--document)) 'carrel))

(cl-defmethod xref-backend-identifier-at-point ((_backend (eql carrel)))
  "The link at point, knowing where point is."
  (propertize (or (thing-at-point 'filename t) (thing-at-point 'symbol t) "link")
              'carrel-position (carrel--point-position)))

(cl-defmethod xref-backend-identifier-completion-table ((_backend (eql carrel)))
  "None: a link is found by where it is, not by a name."
  nil)

(cl-defmethod xref-backend-definitions ((_backend (eql carrel)) identifier)
  "What the link at IDENTIFIER's place leads to."
  (carrel--xrefs 'textDocument/definition identifier))

(cl-defmethod xref-backend-references ((_backend (eql carrel)) identifier)
  "The links to this file, or to what the link at IDENTIFIER's place leads to."
  (carrel--xrefs 'textDocument/references identifier
                 (list :context (list :includeDeclaration :json-false))))

(defun carrel--xrefs (method identifier &optional extra)
  "Ask the server METHOD at IDENTIFIER's place, with EXTRA params; return xrefs."
  (let* ((position (or (get-text-property 0 'carrel-position identifier)
                       (carrel--point-position)))
         (result (carrel--request (car carrel--document) method
                                  (append (list :textDocument (list :uri (cdr carrel--document))
                                                :position position)
                                          extra)))
         (locations (cond ((null result) nil)
                          ((vectorp result) (append result nil))
                          (t (list result))))
         (texts (make-hash-table :test 'equal)))
    (unwind-protect
        (delq nil (mapcar (lambda (location) (carrel--xref location texts)) locations))
      (maphash (lambda (_path buffer) (kill-buffer buffer)) texts))))

(defun carrel--xref (location texts)
  "Return an xref for the LSP LOCATION; TEXTS caches the files read for it."
  (let* ((path (carrel--uri-to-path (plist-get location :uri)))
         (start (plist-get (plist-get location :range) :start)))
    (if (file-directory-p path)
        (xref-make (file-name-nondirectory (directory-file-name path))
                   (xref-make-file-location path 1 0))
      (let ((buffer (or (find-buffer-visiting path)
                        (gethash path texts)
                        (puthash path (with-current-buffer (generate-new-buffer " *carrel-xref*" t)
                                        (ignore-errors (insert-file-contents path))
                                        (current-buffer))
                                 texts))))
        (with-current-buffer buffer
          (let ((pos (carrel--lsp-position start)))
            (save-excursion
              (save-restriction
                (widen)
                (goto-char (or pos (point-min)))
                (xref-make (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                           (xref-make-file-location path (line-number-at-pos nil t)
                                                    (- (point) (line-beginning-position))))))))))))

;;;;; Links that lead nowhere

(defun carrel--flymake (report-fn &rest _)
  "Flymake's backend: report the server's diagnostics with REPORT-FN."
  (setq carrel--flymake-report report-fn)
  (carrel--flymake-report))

(defun carrel--flymake-report ()
  "Give Flymake this buffer's diagnostics, replacing those it had."
  (when carrel--flymake-report
    (condition-case nil
        (carrel--flymake-report-now)
      ;; Flymake was restarted since it gave that function; it asks
      ;; `carrel--flymake' again, which reports these then.
      (error (setq carrel--flymake-report nil)))))

(defun carrel--flymake-report-now ()
  "Report this buffer's diagnostics with the function Flymake gave."
  (funcall carrel--flymake-report
           (delq nil (mapcar
                      (lambda (diagnostic)
                        (let* ((range (plist-get diagnostic :range))
                               (beg (carrel--lsp-position (plist-get range :start)))
                               (end (carrel--lsp-position (plist-get range :end))))
                          (when beg
                            (flymake-make-diagnostic
                             (current-buffer) beg (if (and end (> end beg)) end (min (1+ beg) (point-max)))
                             (pcase (plist-get diagnostic :severity) (1 :error) (2 :warning) (_ :note))
                             (plist-get diagnostic :message)))))
                      carrel--diagnostics))
           :region (cons (point-min) (point-max))))

(defun carrel--publish-diagnostics (params)
  "Show the diagnostics of PARAMS in the buffer they are for."
  (let ((buffer (carrel--document-buffer (plist-get params :uri))))
    (when buffer
      (with-current-buffer buffer
        (setq carrel--diagnostics (append (plist-get params :diagnostics) nil))
        (carrel--flymake-report)))))

(provide 'carrel)
;;; carrel.el ends here
