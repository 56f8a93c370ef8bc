;;; carrel-tests.el --- ERT tests for carrel.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run with tests/run.sh.  Every test starts the real server ($CARREL)
;; on a real temporary library, drives the package the way a writer
;; would (commands with the minibuffer answered by stubs) and checks
;; what is on disk, what the tree shows and what buffers visit.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'json)
(require 'carrel)

(defconst carrel-test--here
  (file-name-directory (or load-file-name buffer-file-name))
  "The tests folder.")

(defconst carrel-test--source
  (expand-file-name "../carrel.el" carrel-test--here)
  "The package's source file.")

;; Failure reports print connection objects, which refer to themselves.
(setq print-circle t)
(setq carrel-server-command (list (or (getenv "CARREL") "carrel") "lsp"))
(setq carrel-icon-style 'glyph)
(setq carrel-visit-function #'find-file)
;; Listings fetched ahead at idle would come between what most tests
;; count; the tests of fetching ahead turn it on.
(setq carrel-fetch-ahead nil)

;;;; Helpers

(defun carrel-test--wait (pred what)
  "Wait up to 5 seconds for PRED to return non-nil; fail naming WHAT."
  (let ((deadline (+ (float-time) 5)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall pred) (ert-fail (list "Timed out waiting for" what)))))

(defvar carrel-test--lib nil "The current test's library directory.")
(defvar carrel-test--conn nil "The current test's connection.")

(defvar carrel-test--deep-requests nil
  "The `carrel/tree' requests of this test that asked for too much.")

(defun carrel-test--check-depth (_conn &rest message)
  "Keep MESSAGE if it asks `carrel/tree' for more than two levels, or all."
  (when (and (memq (plist-get message :method) '(carrel/tree :carrel/tree))
             (let ((depth (plist-get (plist-get message :params) :depth)))
               (not (and (integerp depth) (<= depth 2)))))
    (push message carrel-test--deep-requests)))

(defmacro carrel-test--with-library (&rest body)
  "Run BODY in the tree buffer of a new library called Writing.
Every test in it also checks that the tree was fetched lazily:
no `carrel/tree' without a depth or deeper than two levels."
  (declare (indent 0) (debug t))
  `(let* ((top (make-temp-file "carrel-test" t))
          (carrel-test--lib (expand-file-name "Writing" top))
          (carrel-test--conn nil)
          (carrel-test--deep-requests nil)
          (carrel-confirm-style 'multiple-choice))
     (make-directory carrel-test--lib)
     (advice-add 'jsonrpc-connection-send :before #'carrel-test--check-depth)
     (unwind-protect
         (progn
           (carrel carrel-test--lib)
           (setq carrel-test--conn (carrel--connection-for carrel-test--lib))
           (with-current-buffer (carrel--tree-buffer carrel-test--conn)
             ,@body)
           (should (equal carrel-test--deep-requests nil)))
       (advice-remove 'jsonrpc-connection-send #'carrel-test--check-depth)
       (dolist (buffer (buffer-list))
         (when (and (buffer-file-name buffer)
                    (string-prefix-p top (buffer-file-name buffer)))
           (with-current-buffer buffer (set-buffer-modified-p nil))
           (kill-buffer buffer)))
       (when carrel-test--conn
         (let ((tree (carrel--tree-buffer carrel-test--conn)))
           (when tree (kill-buffer tree))))
       (delete-directory top t))))

(defun carrel-test--path (&rest parts)
  "Return the path of PARTS inside the test library."
  (expand-file-name (string-join parts "/") carrel-test--lib))

(defun carrel-test--run (command &rest arguments)
  "Run the server COMMAND with ARGUMENTS directly; let the tree follow."
  (prog1 (apply #'carrel--execute carrel-test--conn command arguments)
    (carrel--settle carrel-test--conn t)))

(defun carrel-test--project (name type)
  "Create the project NAME of TYPE in the library and return its node."
  (carrel-test--run "carrel.newProject"
                    :parentUri (carrel--path-to-uri carrel-test--lib)
                    :name name :type type))

(defun carrel-test--file (&rest parts)
  "Create an empty file at PARTS in the library through the server."
  (carrel-test--run "carrel.newFile"
                    :parentUri (carrel--path-to-uri
                                (apply #'carrel-test--path (butlast parts)))
                    :name (car (last parts))))

(defun carrel-test--goto (&rest parts)
  "Put point on the row of PARTS in the library, expanding its folders."
  (let ((uri (carrel--path-to-uri (apply #'carrel-test--path parts))))
    (let ((id (carrel--reveal-uri uri)))
      (carrel--load)
      (carrel--render)
      (should (carrel--goto-id id)))
    (should (equal (plist-get (carrel--node-at-point) :uri) uri))))

(defun carrel-test--goto-row (title)
  "Put point on the first shown row whose node has TITLE."
  (goto-char (point-min))
  (while (not (equal (plist-get (carrel-test--node-on-line) :title) title))
    (when (eobp) (ert-fail (list "No row" title)))
    (forward-line 1)))

(defun carrel-test--node-on-line ()
  "Return the node of the row on this line, or nil on a note or no row."
  (and (not (get-text-property (point) 'carrel-note))
       (carrel--node (get-text-property (point) 'carrel-id))))

(defun carrel-test--row (title)
  "Return the text of the first row whose node has TITLE, or nil."
  (save-excursion
    (goto-char (point-min))
    (cl-loop until (eobp)
             when (equal (plist-get (carrel-test--node-on-line) :title) title)
             return (buffer-substring-no-properties (line-beginning-position)
                                                    (line-end-position))
             do (forward-line 1))))

;; Batch Emacs never redisplays, so `pos-visible-in-window-p' cannot be
;; asked; the binder's lines never wrap, so counting them is the same.
(defun carrel-test--in-window-p (window pos)
  "Return non-nil if the line at POS lies in WINDOW's text area."
  (let ((start (window-start window)))
    (and (<= start pos)
         (< (count-lines start (save-excursion (goto-char pos) (line-beginning-position)))
            (window-body-height window)))))

(defun carrel-test--rows ()
  "Return the titles of the visible rows, in order."
  (save-excursion
    (goto-char (point-min))
    (cl-loop until (eobp)
             collect (or (plist-get (carrel-test--node-on-line) :title)
                         (string-trim (buffer-substring-no-properties
                                       (line-beginning-position) (line-end-position))))
             do (forward-line 1))))

(defvar carrel-test--sent nil
  "Requests sent to the server while recording, oldest first, as (METHOD PARAMS).")

(defun carrel-test--record (_conn &rest message)
  "Keep the request MESSAGE that jsonrpc is about to send."
  (when (plist-get message :id)
    (setq carrel-test--sent
          (append carrel-test--sent
                  (list (list (plist-get message :method) (plist-get message :params)))))))

(defmacro carrel-test--recording (&rest body)
  "Run BODY and return the requests it sent, as `carrel-test--sent' has them."
  (declare (indent 0) (debug t))
  `(progn
     (setq carrel-test--sent nil)
     (advice-add 'jsonrpc-connection-send :before #'carrel-test--record)
     (unwind-protect (progn ,@body)
       (advice-remove 'jsonrpc-connection-send #'carrel-test--record))
     carrel-test--sent))

(defun carrel-test--tree-requests (sent)
  "Return the params of the `carrel/tree' requests in SENT."
  (mapcar #'cadr (seq-filter (lambda (m) (memq (car m) '(carrel/tree :carrel/tree))) sent)))

(defun carrel-test--settled ()
  "Wait until no fetch of the tree is under way and what came is drawn."
  (carrel-test--wait (lambda () (and (zerop carrel--pending) (null carrel--queue)))
                     "the fetches to finish"))

(defun carrel-test--header ()
  "Return the tree buffer's header line as displayed.
`format-mode-line' gives \"\" in batch mode, so evaluate the
\(:eval FORM) construct the way redisplay would."
  (should (eq (car-safe header-line-format) :eval))
  (string-replace "%%" "%" (eval (cadr header-line-format) t)))

(defun carrel-test--messages ()
  "Return the text of the *Messages* buffer."
  (with-current-buffer (messages-buffer) (buffer-string)))

(defvar carrel-test--keys nil
  "The keys `carrel--read-key-choice' was last offered.")

(defvar carrel-test--asked nil
  "Prompts the stubs were asked, newest first, as (PROMPT . DETAIL).")

(defun carrel-test--answer (queue prompt detail)
  "Record PROMPT with DETAIL and pop the next answer from QUEUE.
QUEUE is a cons whose car is the list of answers.  An answer of
`quit' signals `quit', like \\[keyboard-quit]."
  (push (cons prompt detail) carrel-test--asked)
  (unless (car queue) (ert-fail (list "Unexpected question" prompt)))
  (let ((answer (pop (car queue))))
    (if (eq answer 'quit) (signal 'quit nil) answer)))

(defmacro carrel-test--answering (answers &rest body)
  "Run BODY with every minibuffer question answered from ANSWERS in order."
  (declare (indent 1) (debug t))
  `(let ((queue (list ,answers)))
     (setq carrel-test--asked nil)
     (cl-letf (((symbol-function 'read-string)
                (lambda (prompt &optional initial &rest _)
                  (carrel-test--answer queue prompt initial)))
               ((symbol-function 'completing-read)
                (lambda (prompt collection &rest _)
                  (carrel-test--answer queue prompt (all-completions "" collection))))
               ((symbol-function 'carrel--read-key-choice)
                (lambda (prompt choices &rest _)
                  (setq carrel-test--keys (mapcar #'car choices))
                  (let ((title (carrel-test--answer queue prompt (mapcar #'cadr choices))))
                    (or (cadr (seq-find (lambda (c) (equal (cadr c) title)) choices))
                        (ert-fail (list "No such choice" title)))))))
       (prog1 (progn ,@body)
         (should (null (car queue)))))))

(defun carrel-test--asked (prompt)
  "Return the detail recorded for the question PROMPT."
  (cdr (or (assoc prompt carrel-test--asked)
           (ert-fail (list "Not asked" prompt carrel-test--asked)))))

(defun carrel-test--visiting (path)
  "Return the buffer visiting PATH, or nil."
  (seq-find (lambda (b) (equal (buffer-file-name b) path)) (buffer-list)))

(defun carrel-test--edit (path text)
  "Visit PATH, insert TEXT without saving, and return the buffer."
  (with-current-buffer (find-file-noselect path)
    (goto-char (point-max))
    (insert text)
    (current-buffer)))

;;;; Render

(ert-deftest carrel-test-render-sections-icons-counts ()
  "The tree shows library, project, sections, permanent folders, icons and counts."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft"))
                      :name "Cycle")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    ;; Icon, title, then the server's summary, dimmed: no arrows, no numbers of its own.
    ;; The words follow once the server has counted them.
    (carrel-test--wait (lambda () (equal (carrel-test--row "Writing") "📚 Writing  2 files · 0 words"))
                       "the words")
    (should (equal (carrel-test--row "My Poems") "  🗂 My Poems  2 files · 0 words"))
    (should (equal (carrel-test--row "YOUR POETRY") "    YOUR POETRY  2 files · 0 words"))
    (should (equal (carrel-test--row "PUBLICATIONS") "    PUBLICATIONS"))
    (should (carrel-test--row "TRASH"))
    (should (equal (carrel-test--row "Draft") "      📝 Draft  2 files · 0 words"))
    (should (equal (carrel-test--row "All") "      🌐 All  2 files · 0 words"))
    (should (equal (carrel-test--row "Spring.md") "        📄 Spring.md  0 words"))
    (should (equal (carrel-test--row "Cycle") "        📁 Cycle"))
    (should-not (string-match-p "[▸▾]" (buffer-string)))
    (goto-char (point-min))
    (search-forward "2 files")
    (should (eq (get-text-property (1- (point)) 'face) 'carrel-count))
    ;; Permanent folders in template order, then Draft's folders before files.
    (let ((rows (carrel-test--rows)))
      (should (equal (seq-take (member "YOUR POETRY" rows) 4)
                     '("YOUR POETRY" "All" "Draft" "Cycle")))
      (should (equal (seq-take (member "Cycle" rows) 3) '("Cycle" "Spring.md" "Summer.md")))
      (should (< (cl-position "Research" rows :test #'equal)
                 (cl-position "PUBLICATIONS" rows :test #'equal)))
      ;; Only the first section starts expanded.
      (should (equal (member "PUBLICATIONS" rows) '("PUBLICATIONS" "TRASH"))))))

(ert-deftest carrel-test-render-link-says-so ()
  "A symlink's row says it is a link, after its title."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (make-symbolic-link (carrel-test--path "My Poems" "Draft" "Spring.md")
                        (carrel-test--path "My Poems" "Ready" "Shortcut.md"))
    (carrel-test--wait (lambda ()
                         (call-interactively #'carrel-refresh)
                         (ignore-errors (carrel-test--goto "My Poems" "Ready" "Shortcut.md"))
                         (carrel-test--row "Shortcut.md"))
                       "the link in the tree")
    (should (equal (carrel-test--row "Shortcut.md") "        🔗 Shortcut.md  (link)"))
    (should (equal (carrel--icon (list :icon "doc.text" :link t)) (if (eq (carrel--icon-style) 'text) ">" "🔗")))
    (let ((carrel-icon-style 'text))
      (should (equal (carrel--icon (list :icon "folder" :link t)) ">"))
      (should (equal (carrel--icon (list :icon "folder" :unreadable t)) "!")))))

(ert-deftest carrel-test-render-text-icons ()
  "On `text' style every row's mark is ASCII, a folder's as well."
  (carrel-test--with-library
    (let ((carrel-icon-style 'text))
      (carrel-test--project "Tale" "shortStory")
      (carrel-test--goto "Tale" "Draft")
      (should (string-match-p "^# Writing" (carrel-test--row "Writing")))
      (should (string-match-p "^  @ Tale" (carrel-test--row "Tale")))
      (should (string-match-p "^      \\* All$" (carrel-test--row "All")))
      (carrel-test--goto "Tale" "Trash")
      (should (string-match-p "~ Trash$" (carrel-test--row "Trash")))
      (should-not (string-match-p "[^[:ascii:]]" (carrel-test--row "Draft"))))))

(ert-deftest carrel-test-header-line-breadcrumb ()
  "The header line shows Library › Project › Folder for the row at point."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft")
    (should (equal (carrel-test--header) "Writing › My Poems › Draft"))
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (should (equal (carrel-test--header)
                   "Writing › My Poems › Draft › Spring.md"))
    (goto-char (point-min))
    (should (equal (carrel-test--header) "Writing"))
    ;; The breadcrumb is the binder's own: file buffers keep their header line.
    (with-current-buffer (find-file-noselect (carrel-test--path "My Poems" "Draft" "Spring.md"))
      (should-not header-line-format))))

;;;; Commands in the tree

(ert-deftest carrel-test-new-project ()
  "P asks a name and a type and makes the project on disk."
  (carrel-test--with-library
    (goto-char (point-min))
    (carrel-test--answering '("Saga" "Novel")
      (call-interactively #'carrel-new-project))
    (should (equal (carrel-test--asked "Project type: ")
                   '("Blank" "Poetry" "Short Story" "Novel" "Script")))
    (should (file-directory-p (carrel-test--path "Saga" "Chapters")))
    (with-temp-buffer
      (insert-file-contents (carrel-test--path "Saga" ".carrel" "project.json"))
      (should (equal (cdr (assq 'type (json-read))) "novel")))
    (should (equal (plist-get (carrel--node-at-point) :title) "Saga"))
    (should (carrel-test--row "YOUR NOVEL"))))

(ert-deftest carrel-test-new-file-and-folder ()
  "A makes a folder; a makes a file in it and visits it, ready to type."
  (carrel-test--with-library
    (carrel-test--project "Saga" "novel")
    (carrel-test--goto "Saga" "Chapters")
    (carrel-test--answering '("Part One")
      (call-interactively #'carrel-new-folder))
    (should (file-directory-p (carrel-test--path "Saga" "Chapters" "Part One")))
    (should (equal (plist-get (carrel--node-at-point) :title) "Part One"))
    (let ((tree (current-buffer)))
      (carrel-test--answering '("Chapter 1")
        (call-interactively #'carrel-new-file))
      (should (equal (caar carrel-test--asked) "New file name: "))
      (let ((file (carrel-test--path "Saga" "Chapters" "Part One" "Chapter 1.md")))
        (should (file-exists-p file))
        (should (equal buffer-file-name file))
        (insert "It was a dark night.")
        (save-buffer)
        (with-current-buffer tree
          (should (equal (plist-get (carrel--node-at-point) :title) "Chapter 1.md"))))
      (with-current-buffer tree
        (carrel-test--wait (lambda () (string-match-p "Part One  1 file · 5 words$" (carrel-test--row "Part One")))
                           "the new file counted")))))

(ert-deftest carrel-test-non-ascii-names ()
  "Names beyond ASCII survive the trip through file URIs and back.
+ in a folder called Poèmes visits Été.md there, not a mangled name."
  (should (equal (carrel--uri-to-path "file:///tmp/Po%C3%A8mes/%C3%89t%C3%A9%201.md")
                 "/tmp/Poèmes/Été 1.md"))
  (carrel-test--with-library
    (carrel-test--project "Poèmes" "poetry")
    (carrel-test--goto "Poèmes" "Draft")
    (carrel-test--answering '("Été")
      (call-interactively #'carrel-new-file))
    (should (equal buffer-file-name (carrel-test--path "Poèmes" "Draft" "Été.md")))
    (should (file-exists-p buffer-file-name))))

(ert-deftest carrel-test-rename-follows-buffer ()
  "R offers the current name and the visiting buffer follows, unsaved edits and all."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (let ((buffer (carrel-test--edit (carrel-test--path "My Poems" "Draft" "Spring.md") "unsaved")))
      (carrel-test--goto "My Poems" "Draft" "Spring.md")
      (carrel-test--answering '("Spring Rain.md")
        (call-interactively #'carrel-rename))
      (should (equal (carrel-test--asked "Rename to: ") "Spring.md"))
      (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring Rain.md")))
      (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))
      (should (equal (buffer-file-name buffer)
                     (carrel-test--path "My Poems" "Draft" "Spring Rain.md")))
      (with-current-buffer buffer
        (should (buffer-modified-p))
        (should (equal (buffer-string) "unsaved"))
        (should (listp buffer-undo-list))
        (should buffer-undo-list))
      (should (equal (plist-get (carrel--node-at-point) :title) "Spring Rain.md")))))

(ert-deftest carrel-test-rename-unchanged-sends-nothing ()
  "Renaming to the name it has sends nothing, from the tree or the file,
so nothing waits for a change that never comes."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (should (equal (carrel-test--recording
                     (carrel-test--answering '("Spring.md")
                       (call-interactively #'carrel-rename)))
                   nil))
    (should (equal (plist-get (carrel--node-at-point) :title) "Spring.md"))
    (with-current-buffer (find-file-noselect (carrel-test--path "My Poems" "Draft" "Spring.md"))
      (should (equal (carrel-test--recording
                       (carrel-test--answering '("Spring.md")
                         (call-interactively #'carrel-rename-file)))
                     nil))
      (should (equal buffer-file-name (carrel-test--path "My Poems" "Draft" "Spring.md"))))))

(ert-deftest carrel-test-rename-folder-follows-files-inside ()
  "Renaming a folder moves the buffers of files inside it and keeps it expanded."
  (carrel-test--with-library
    (carrel-test--project "Saga" "novel")
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri (carrel-test--path "Saga" "Chapters"))
                      :name "Part One")
    (carrel-test--file "Saga" "Chapters" "Part One" "Opening")
    (let ((buffer (carrel-test--edit (carrel-test--path "Saga" "Chapters" "Part One" "Opening.md") "words")))
      (carrel-test--goto "Saga" "Chapters" "Part One" "Opening.md")
      (carrel-up)
      (should (equal (plist-get (carrel--node-at-point) :title) "Part One"))
      (carrel-test--answering '("Part I")
        (call-interactively #'carrel-rename))
      (should (equal (buffer-file-name buffer)
                     (carrel-test--path "Saga" "Chapters" "Part I" "Opening.md")))
      (should (buffer-modified-p buffer))
      (should (carrel-test--row "Opening.md")))))

(ert-deftest carrel-test-move-to-folder ()
  "m picks among folder paths; the file and its buffer move."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (let ((buffer (carrel-test--edit (carrel-test--path "My Poems" "Draft" "Spring.md") "draft")))
      (carrel-test--goto "My Poems" "Draft" "Spring.md")
      (let ((sent (carrel-test--recording
                    (carrel-test--answering '("Writing › My Poems › Ready")
                      (call-interactively #'carrel-move)))))
        ;; The server's destinations for the item, asked once.
        (should (equal (cadr (assq 'carrel/destinations sent))
                       (list :uri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Spring.md"))
                             :purpose "move"))))
      (let ((choices (carrel-test--asked "Move “Spring.md” to: ")))
        ;; "New folder…" first, then the server's order, labels joined with " › ".
        (should (equal (seq-take choices 5) '("New folder…" "Writing" "Writing › My Poems"
                                              "Writing › My Poems › Ready" "Writing › My Poems › Set Aside")))
        (should (equal (car (last choices)) "Writing › My Poems › Trash"))
        (should-not (member "Writing › My Poems › Draft" choices))
        (should-not (member "Writing › My Poems › All" choices)))
      (should (file-exists-p (carrel-test--path "My Poems" "Ready" "Spring.md")))
      (should (equal (buffer-file-name buffer) (carrel-test--path "My Poems" "Ready" "Spring.md")))
      (should (equal (with-current-buffer buffer (buffer-string)) "draft"))
      (should (equal (carrel-test--header)
                     "Writing › My Poems › Ready › Spring.md")))))

(ert-deftest carrel-test-move-to-new-folder ()
  "The “New folder…” choice asks a name and a parent, creates it and moves in."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--answering '("New folder…" "Seasons" "Writing › My Poems › Ready")
      (call-interactively #'carrel-move))
    (should (equal (carrel-test--asked "New folder name: ") nil))
    (let ((parents (carrel-test--asked "Create “Seasons” in: ")))
      ;; Its own folder is a fine place for the new one; a Trash is not.
      (should (member "Writing › My Poems › Draft" parents))
      (should-not (seq-find (lambda (label) (string-match-p "Trash" label)) parents)))
    (should (file-exists-p (carrel-test--path "My Poems" "Ready" "Seasons" "Spring.md")))
    (should (equal (carrel-test--header)
                   "Writing › My Poems › Ready › Seasons › Spring.md"))))

(ert-deftest carrel-test-picker-takes-spaces ()
  "A destination with spaces can be typed whole: SPC in a Carrel picker
types a space instead of completing a word."
  ;; Batch Emacs reads the minibuffer from stdin, so the test reads the
  ;; keymap the picker's minibuffer would use; the terminal journey types.
  (let (space)
    (cl-letf (((symbol-function 'completing-read)
               (lambda (&rest _)
                 (setq space (lookup-key minibuffer-local-must-match-map " "))
                 "Draft › Sea Cycle")))
      (carrel--read-choice "Move “Spring.md” to: " '("Draft" "Draft › Sea Cycle")))
    (should (eq space #'self-insert-command))))

(ert-deftest carrel-test-confirm-bare-return-answers-first ()
  "A bare RET at the server's question answers its first action; keys
answer in either case."
  ;; After the RET, a `d' that would answer Delete if RET were refused.
  (let ((unread-command-events (list ?\r ?d)))
    (should (equal (carrel--choose "Move “Spring.md” to the Trash?"
                                   '("Cancel" "Delete" "Delete and Don't Ask Again"))
                   "Cancel")))
  (let ((unread-command-events (list ?a)))
    (should (equal (carrel--choose "Move “Spring.md” to the Trash?"
                                   '("Cancel" "Delete" "Delete and Don't Ask Again"))
                   "Delete and Don't Ask Again")))
  ;; Caps Lock on, or Shift held, still answers.
  (let ((unread-command-events (list ?D)))
    (should (equal (carrel--choose "Move “Spring.md” to the Trash?" '("Cancel" "Delete"))
                   "Delete")))
  (let ((unread-command-events (list ?\C-g)))
    (should (eq (condition-case nil
                    (carrel--choose "Move “Spring.md” to the Trash?" '("Cancel" "Delete"))
                  (quit 'quit))
                'quit))))

(ert-deftest carrel-test-delete-cancel-and-quit ()
  "Cancel and C-g at the confirmation delete nothing and say so."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (let ((err (carrel-test--answering '("Cancel")
                 (should-error (call-interactively #'carrel-delete) :type 'user-error))))
      (should (equal (cadr err) "Cancelled: nothing was deleted.")))
    (should (equal (car (car carrel-test--asked)) "Move “Spring.md” to the Trash?"))
    (should (equal (cdr (car carrel-test--asked))
                   '("Cancel" "Delete" "Delete and Don't Ask Again")))
    (should (equal carrel-test--keys '(?\r ?d ?a)))
    (carrel-test--answering '(quit)
      (should-error (call-interactively #'carrel-delete) :type 'user-error))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))
    (let ((carrel-confirm-style 'completing-read))
      (carrel-test--answering '(quit)
        (should-error (call-interactively #'carrel-delete) :type 'user-error)))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))))

(ert-deftest carrel-test-delete-follows-into-trash ()
  "Delete moves to Trash and every buffer follows there, so saving never
brings the old file back; deleting for good closes an unmodified buffer
and keeps a modified one, saying the file no longer exists."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (let ((clean (find-file-noselect (carrel-test--path "My Poems" "Draft" "Spring.md")))
          (dirty (carrel-test--edit (carrel-test--path "My Poems" "Draft" "Summer.md") "hot")))
      (carrel-test--goto "My Poems" "Draft" "Spring.md")
      (carrel-test--answering '("Delete")
        (call-interactively #'carrel-delete))
      (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Spring.md")))
      (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))
      (should (buffer-live-p clean))
      (should (equal (buffer-file-name clean) (carrel-test--path "My Poems" "Trash" "Spring.md")))
      ;; Point keeps its line, where the next row now is.
      (should (equal (plist-get (carrel--item-at-point) :title) "Summer.md"))
      (carrel-test--goto "My Poems" "Draft" "Summer.md")
      (let ((carrel-confirm-style 'completing-read))
        (carrel-test--answering '("Delete")
          (call-interactively #'carrel-delete)))
      (should (equal (buffer-file-name dirty) (carrel-test--path "My Poems" "Trash" "Summer.md")))
      (should (buffer-modified-p dirty))
      (with-current-buffer dirty (save-buffer))
      (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Summer.md")))
      (with-temp-buffer
        (insert-file-contents (carrel-test--path "My Poems" "Trash" "Summer.md"))
        (should (equal (buffer-string) "hot")))
      ;; The server's report, and none of the client's own.
      (should (string-match-p "^Moved “Summer.md” to the Trash.$" (carrel-test--messages)))
      (should-not (string-match-p "Moved “Summer.md” to the Trash$" (carrel-test--messages)))
      ;; Deleting for good: the unmodified buffer closes, the modified one stays.
      (with-current-buffer dirty (insert " again"))
      (carrel-test--goto "My Poems" "Trash" "Spring.md")
      (carrel-test--answering '("Delete")
        (call-interactively #'carrel-delete))
      (should-not (buffer-live-p clean))
      (carrel-test--goto "My Poems" "Trash" "Summer.md")
      (carrel-test--answering '("Delete")
        (call-interactively #'carrel-delete))
      (should (buffer-live-p dirty))
      (should (buffer-modified-p dirty))
      (should (string-match-p "“Summer.md” no longer exists on disk; its unsaved changes stay in its buffer"
                              (carrel-test--messages)))
      ;; The echo area is overwritten by the next message: the note stays
      ;; at the top of the buffer until it is saved.
      (with-current-buffer dirty
        (should (string-match-p "“Summer.md” no longer exists on disk" (format "%s" header-line-format)))
        (save-buffer)
        (should-not header-line-format)))))

(ert-deftest carrel-test-trash-opened-after-a-delete-shows-the-item ()
  "A delete while TRASH is closed, then opening TRASH whole with
`carrel-expand-all', shows the deleted item, ready to restore."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Ebb Tide")
    (carrel-test--goto "My Poems" "Draft" "Ebb Tide.md")
    (carrel-test--answering '("Delete")
      (call-interactively #'carrel-delete))
    (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Ebb Tide.md")))
    (carrel-test--goto-row "TRASH")
    (call-interactively #'carrel-expand-all)
    (carrel-test--wait (lambda () (carrel-test--row "Ebb Tide.md")) "the deleted item in the Trash")))

;; In a 40-line terminal the binder shares the frame with the file being
;; written, so TRASH, the last section, sits on the window's last line.
(ert-deftest carrel-test-expand-all-at-the-window-bottom-shows-what-opened ()
  "`carrel-expand-all' on a section on the window's last line scrolls
the rows it opened into view, the section staying in view too."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Ebb Tide")
    (carrel-test--goto "My Poems" "Draft" "Ebb Tide.md")
    (carrel-test--answering '("Delete")
      (call-interactively #'carrel-delete))
    (let ((window (get-buffer-window (current-buffer))))
      (should window)
      (select-window window)
      (split-window window 8)
      (carrel-test--goto-row "TRASH")
      (set-window-start window (save-excursion
                                 (forward-line (- 1 (window-body-height window)))
                                 (point)))
      (let ((section (point)))
        (should (carrel-test--in-window-p window section))
        (call-interactively #'carrel-expand-all)
        (carrel-test--wait (lambda ()
                             (and (carrel-test--row "Ebb Tide.md")
                                  (zerop carrel--pending) (null carrel--queue)))
                           "the deleted item in the Trash")
        (should (carrel-test--in-window-p window section))
        (carrel-test--goto-row "Ebb Tide.md")
        (should (carrel-test--in-window-p window (point)))))))

(ert-deftest carrel-test-delete-with-all-open-lands-on-the-follower ()
  "With All open, a delete takes two rows away, one above point; point
goes to the row that followed, so `d' again deletes the next file."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Alpha")
    (carrel-test--file "My Poems" "Draft" "Beta")
    (carrel-test--goto "My Poems" "Draft" "Alpha.md")
    (carrel-test--goto-row "All")
    (carrel-toggle)
    (carrel--load)
    (carrel--render)
    (carrel-test--goto "My Poems" "Draft" "Alpha.md")
    (carrel-test--answering '("Delete")
      (call-interactively #'carrel-delete))
    (should-not (member "Alpha.md" (carrel-test--rows)))
    (should (equal (plist-get (carrel--item-at-point) :uri)
                   (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Beta.md"))))))

(ert-deftest carrel-test-delete-dont-ask-again ()
  "“Delete and Don't Ask Again” deletes, the next delete asks nothing,
and Ask before deleting on the project turns the question back on."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (carrel-test--file "My Poems" "Draft" "Autumn")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--answering '("Delete and Don't Ask Again")
      (call-interactively #'carrel-delete))
    (carrel-test--goto "My Poems" "Draft" "Summer.md")
    (carrel-test--answering '()
      (call-interactively #'carrel-delete))
    (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Summer.md")))
    (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Spring.md")))
    (carrel-test--goto "My Poems")
    (should (eq (plist-get (carrel--node-at-point) :confirmDelete) :json-false))
    (let ((sent (carrel-test--recording
                  (call-interactively #'carrel-ask-before-deleting))))
      (should (assq 'workspace/executeCommand sent))
      (should (equal (plist-get (cadr (assq 'workspace/executeCommand sent)) :command)
                     "carrel.setConfirmDelete")))
    (should-not (plist-get (carrel--node-at-point) :confirmDelete))
    (carrel-test--goto "My Poems" "Draft" "Autumn.md")
    (carrel-test--answering '("Cancel")
      (should-error (call-interactively #'carrel-delete) :type 'user-error))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Autumn.md")))))

(ert-deftest carrel-test-ask-before-deleting-never-turns-it-off ()
  "Ask before deleting where asking is on sends confirm t and says so."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (let ((sent (carrel-test--recording
                  (call-interactively #'carrel-ask-before-deleting))))
      (should (equal (plist-get (cadr (assq 'workspace/executeCommand sent)) :arguments)
                     (vector (list :uri (carrel--path-to-uri (carrel-test--path "My Poems"))
                                   :confirm t)))))
    (should (equal (plist-get (carrel--node-at-point) :title) "My Poems"))
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--wait (lambda () (string-match-p "Deleting in “My Poems” already asks first\\."
                                                  (carrel-test--messages)))
                       "the server saying so")
    (carrel-test--answering '("Cancel")
      (should-error (call-interactively #'carrel-delete) :type 'user-error))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))))

(ert-deftest carrel-test-set-link-updates ()
  "Link Updates sends the mode, project.json holds it, and the row says it."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '("Never update them")
                    (call-interactively #'carrel-set-link-updates)))))
      (should (equal (plist-get (cadr (assq 'workspace/executeCommand sent)) :arguments)
                     (vector (list :uri (carrel--path-to-uri (carrel-test--path "My Poems"))
                                   :mode "never")))))
    (should (equal (car (car carrel-test--asked)) "When a move breaks links in “My Poems”: "))
    (should (equal (cdr (car carrel-test--asked))
                   '("Update them without asking" "Ask each time (now)" "Never update them")))
    (let ((json (with-temp-buffer
                  (insert-file-contents (carrel-test--path "My Poems" ".carrel" "project.json"))
                  (json-parse-string (buffer-string)))))
      (should (equal (gethash "value" (gethash "linkUpdates" (gethash "preferences" json))) "never")))
    (should (equal (plist-get (carrel--node-at-point) :linkUpdates) "never"))))

(ert-deftest carrel-test-duplicate ()
  "D copies the item at point beside itself and puts point on the copy."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (call-interactively #'carrel-duplicate)
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring copy.md")))
    (should (equal (plist-get (carrel--node-at-point) :uri)
                   (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Spring copy.md"))))))

(ert-deftest carrel-test-restore-and-empty-trash ()
  "u restores from Trash; E empties the Trash after asking, in the server's words."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (dolist (name '("Spring.md" "Summer.md"))
      (carrel-test--run "carrel.delete" :uri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" name))
                        :confirmed t))
    (carrel-test--goto "My Poems" "Trash" "Spring.md")
    (call-interactively #'carrel-restore)
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))
    (should (equal (plist-get (carrel--node-at-point) :uri)
                   (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Spring.md"))))
    (should (string-match-p "^Restored “Spring.md” to “Draft”.$" (carrel-test--messages)))
    (carrel-test--goto "My Poems" "Trash")
    (carrel-test--answering '("Cancel")
      (should-error (call-interactively #'carrel-empty-trash) :type 'user-error))
    (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Summer.md")))
    (carrel-test--answering '("Delete")
      (call-interactively #'carrel-empty-trash))
    (should (string-match-p "in the Trash of “My Poems” forever" (car (car carrel-test--asked))))
    (should-not (file-exists-p (carrel-test--path "My Poems" "Trash" "Summer.md")))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))
    ;; The report follows the response and the change: on a loaded machine
    ;; it may come a moment after the command returns.
    (carrel-test--wait (lambda () (string-match-p "^Emptied the Trash: " (carrel-test--messages)))
                       "the server's report of the emptied Trash")
    (should-not (string-match-p "deleted)" (carrel-test--messages)))
    (should-not (carrel-test--row "Summer.md"))))

(ert-deftest carrel-test-command-waits-for-its-own-change ()
  "A command goes on once its own change is in, not one told before its answer.
A relay tells a change before each command's answer and holds the
command's own half a second, as on a loaded machine."
  (skip-unless (executable-find "python3"))
  (let ((carrel-server-command
         (list "python3" (expand-file-name "../../vim/tests/change_first_relay.py" carrel-test--here)
               "0.5" (or (getenv "CARREL") "carrel") "lsp")))
    (carrel-test--with-library
      (carrel-test--project "My Poems" "poetry")
      (carrel-test--file "My Poems" "Draft" "Spring")
      (carrel-test--run "carrel.delete" :uri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Spring.md"))
                        :confirmed t)
      (carrel-test--goto "My Poems" "Trash" "Spring.md")
      (carrel-test--answering '("Delete")
        (call-interactively #'carrel-empty-trash))
      (should-not (file-exists-p (carrel-test--path "My Poems" "Trash" "Spring.md")))
      ;; Drawn as the command returns: it waited for the Trash's change.
      (should-not (carrel-test--row "Spring.md")))))

(ert-deftest carrel-test-sort ()
  "s offers the server's sort orders; the tree shows the new order.
Point goes to the project sorted."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Autumn")
    (carrel-test--file "My Poems" "Draft" "Winter")
    (carrel-test--goto "My Poems" "Draft" "Autumn.md")
    (should (equal (seq-take (member "Autumn.md" (carrel-test--rows)) 2) '("Autumn.md" "Winter.md")))
    (carrel-test--answering '("Name, Z to A")
      (call-interactively #'carrel-sort))
    (should (equal (carrel-test--asked "Sort by: ")
                   (mapcar (lambda (sort) (plist-get sort :title))
                           (carrel--experimental carrel-test--conn :sorts))))
    (should (member "Date Modified, Newest First" (carrel-test--asked "Sort by: ")))
    (should (equal (seq-take (member "Winter.md" (carrel-test--rows)) 2) '("Winter.md" "Autumn.md")))
    ;; Point on the row the command answered: the project it sorted.
    (should (equal (plist-get (carrel--node-at-point) :title) "My Poems"))))

(defun carrel-test--expand-all-of-a-project ()
  "Make \"My Poems\" with Draft/Spring.md, press > on it, and wait until done."
  (carrel-test--project "My Poems" "poetry")
  (carrel-test--file "My Poems" "Draft" "Spring")
  (carrel-test--goto "My Poems")
  (call-interactively #'carrel-expand-all)
  (carrel-test--wait (lambda () (null carrel--expanding-all)) "expanding all to end")
  (carrel-test--settled)
  (should (carrel-test--row "Magazines")))

(ert-deftest carrel-test-expand-all-ends ()
  "Once > has expanded everything, a folder made later starts collapsed."
  (carrel-test--with-library
    (carrel-test--expand-all-of-a-project)
    (make-directory (carrel-test--path "My Poems" "Draft" "Later"))
    (with-temp-file (carrel-test--path "My Poems" "Draft" "Later" "Inside.md") (insert "x"))
    (carrel-test--wait (lambda () (carrel-test--row "Later")) "the new folder shown")
    (carrel-test--settled)
    (let ((later (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Later"))))
      (should-not (gethash later carrel--expanded))
      (should-not (carrel--loaded-p later)))))

(ert-deftest carrel-test-expand-all-leaves-all-closed ()
  "> opens every folder but \"All\", which would show every file twice."
  (carrel-test--with-library
    (carrel-test--expand-all-of-a-project)
    (should (carrel-test--shown-under "Spring.md" "My Poems" "Draft"))
    (let ((all (concat (carrel--path-to-uri (carrel-test--path "My Poems")) "/.carrel/all")))
      (should (carrel--goto-id all))
      (should-not (gethash all carrel--expanded))
      (goto-char (point-min))
      (should-not (cl-loop until (eobp)
                           thereis (let ((id (carrel--row-id)))
                                     (and id (not (equal id all)) (carrel--under-id-p id all)))
                           do (forward-line 1))))))

(ert-deftest carrel-test-expand-all-with-all-held-ends ()
  "Pressing > where every row below is held already fetches nothing,
and a folder made there later starts collapsed."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft")
    (carrel-toggle)
    (carrel-test--settled)
    (should (carrel-test--row "Spring.md"))
    (call-interactively #'carrel-expand-all)
    (carrel-test--settled)
    (make-directory (carrel-test--path "My Poems" "Draft" "Later"))
    (with-temp-file (carrel-test--path "My Poems" "Draft" "Later" "Inside.md") (insert "x"))
    (carrel-test--wait (lambda () (carrel-test--row "Later")) "the new folder shown")
    (carrel-test--settled)
    (let ((later (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Later"))))
      (should-not (gethash later carrel--expanded))
      (should-not (carrel-test--row "Inside.md")))))

(ert-deftest carrel-test-navigation-keys ()
  "The keys of the spec's table; RET and TAB toggle, ^ goes up, < and >, g refreshes."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (dolist (binding '(("RET" . carrel-open) ("TAB" . carrel-open) (">" . carrel-expand-all)
                       ("<" . carrel-collapse-all) ("a" . carrel-new-file) ("A" . carrel-new-folder)
                       ("P" . carrel-new-project) ("r" . carrel-rename) ("m" . carrel-move)
                       ("D" . carrel-duplicate)
                       ("d" . carrel-delete) ("u" . carrel-restore) ("E" . carrel-empty-trash)
                       ("s" . carrel-sort) ("g" . carrel-refresh) ("^" . carrel-up)
                       ("?" . carrel-help) ("q" . quit-window)
                       ;; dired's words as well
                       ("R" . carrel-rename) ("+" . carrel-new-folder)))
      (should (equal (cons (car binding) (key-binding (kbd (car binding)))) binding)))
    (carrel-test--goto "My Poems")
    ;; A project made after the first view opens as the first view shows one.
    (carrel-test--settled)
    (should (carrel-test--row "Draft"))
    (call-interactively (key-binding (kbd "RET")))
    (should-not (carrel-test--row "YOUR POETRY"))
    (call-interactively (key-binding (kbd "TAB")))
    (should (carrel-test--row "YOUR POETRY"))
    (should-not (carrel-test--row "Spring.md"))
    (call-interactively #'carrel-expand-all)
    (carrel-test--settled)
    (should (carrel-test--row "Spring.md"))
    (should (carrel-test--row "Magazines"))
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-up)
    (should (equal (plist-get (carrel--node-at-point) :title) "Draft"))
    (carrel-up)
    (should (equal (plist-get (carrel--node-at-point) :title) "YOUR POETRY"))
    (call-interactively #'carrel-collapse-all)
    (should (equal (carrel-test--rows) '("Writing" "My Poems")))
    (forward-line 1)
    (carrel-test--wait (lambda () (equal (carrel-test--row "My Poems") "  🗂 My Poems  1 file · 0 words"))
                       "the words")
    ;; With live changes off, only g can show a file made behind Carrel's back.
    (cl-letf (((symbol-function 'carrel--apply-change) #'ignore))
      (with-temp-file (carrel-test--path "ideas.md") (insert "x"))
      (carrel-test--wait (lambda ()
                           (call-interactively #'carrel-refresh)
                           (equal (carrel-test--row "Writing") "📚 Writing  2 files · 1 word"))
                         "g to show the new file"))
    (should (equal (carrel-test--rows) '("Writing" "My Poems" "ideas.md")))
    (should (equal (plist-get (carrel--node-at-point) :title) "My Poems"))
    (call-interactively #'carrel-help)
    (with-current-buffer "*Carrel keys*"
      (should (string-match-p "^a\tNew File$" (buffer-string)))
      (should (string-match-p "^d\tDelete$" (buffer-string))))))

(ert-deftest carrel-test-rename-permanent-folder-refused-before-asking ()
  "Rename on a permanent folder is refused in the server's words before any
name is asked."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--goto "My Poems" "Draft")
    (let (asked)
      (cl-letf (((symbol-function 'read-string) (lambda (&rest _) (setq asked t) "Drafts")))
        (let ((err (should-error (call-interactively #'carrel-rename) :type 'user-error)))
          (should (string-match-p "“Draft” is a permanent folder" (cadr err)))))
      (should-not asked))
    (should (file-directory-p (carrel-test--path "My Poems" "Draft")))))

(ert-deftest carrel-test-server-error-is-a-user-error ()
  "A refused command shows the server's message as a `user-error'."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--goto "My Poems" "Draft")
    (let ((err (should-error (call-interactively #'carrel-rename) :type 'user-error)))
      (should (string-match-p "permanent folder" (cadr err))))
    (carrel-test--answering '("a/b")
      (should-error (call-interactively #'carrel-new-file) :type 'user-error))
    (carrel-test--goto "My Poems")
    (forward-line 1)
    (should (equal (plist-get (carrel--node-at-point) :title) "YOUR POETRY"))
    (should (string-match-p "section header"
                            (cadr (should-error (carrel-delete) :type 'user-error))))
    (should (equal (directory-files (carrel-test--path "My Poems" "Draft") nil "^[^.]") nil))))

(ert-deftest carrel-test-french-confirmation ()
  "With `carrel-locale' \"fr\" the server's question and actions show as sent."
  (let ((carrel-locale "fr"))
    (carrel-test--with-library
      (carrel-test--project "Poèmes" "poetry")
      (carrel-test--file "Poèmes" "Draft" "Printemps")
      (carrel-test--goto "Poèmes" "Draft" "Printemps.md")
      (should (equal (carrel-test--header) "Writing › Poèmes › Brouillons › Printemps.md"))
      (carrel-test--answering '("Annuler")
        (should-error (call-interactively #'carrel-delete) :type 'user-error))
      (should (equal (cdr (car carrel-test--asked))
                     '("Annuler" "Supprimer" "Supprimer et ne plus demander")))
      ;; Project types and sort orders are the server's, in its language.
      (let ((types (mapcar (lambda (type) (plist-get type :title))
                           (carrel--experimental carrel-test--conn :projectTypes)))
            (sorts (mapcar (lambda (sort) (plist-get sort :title))
                           (carrel--experimental carrel-test--conn :sorts))))
        (should (= (length types) 5))
        (should-not (member "Poetry" types))
        (should-not (member "Name, A to Z" sorts))
        (carrel-test--answering (list "Recueil" (nth 1 types))
          (call-interactively #'carrel-new-project))
        (should (equal (carrel-test--asked "Project type: ") types))
        (should (file-directory-p (carrel-test--path "Recueil" ".carrel")))
        (carrel-test--answering (list (nth 1 sorts))
          (call-interactively #'carrel-sort))
        (should (equal (carrel-test--asked "Sort by: ") sorts)))
      (should (file-exists-p (carrel-test--path "Poèmes" "Draft" "Printemps.md"))))))

(ert-deftest carrel-test-missing-server-is-a-user-error ()
  "A server command that does not exist gives a `user-error' naming the option."
  (let ((carrel-server-command '("/nonexistent/carrel" "lsp"))
        (dir (make-temp-file "carrel-none" t)))
    (unwind-protect
        (should (string-match-p "carrel-server-command"
                                (cadr (should-error (carrel dir) :type 'user-error))))
      (delete-directory dir t))))

;;;; Choosing the library

(ert-deftest carrel-test-guess-root ()
  "From inside a project, `carrel' opens the library that holds it."
  (let* ((top (make-temp-file "carrel-guess" t))
         (carrel-library-directory nil)
         (default-directory (expand-file-name "Lib/Proj/Draft/" top)))
    (unwind-protect
        (progn
          (make-directory (expand-file-name "Lib/Proj/.carrel" top) t)
          (make-directory default-directory t)
          (with-temp-file (expand-file-name "Lib/Proj/.carrel/project.json" top)
            (insert "{}"))
          (should (equal (carrel--guess-root) (expand-file-name "Lib/" top)))
          (let ((carrel-library-directory "/elsewhere/"))
            (should (equal (carrel--guess-root) "/elsewhere/")))
          (let ((default-directory top))
            (should-not (equal (carrel--guess-root) (expand-file-name "Lib/" top)))))
      (delete-directory top t))))

(ert-deftest carrel-test-guess-root-beside-projects ()
  "From a folder that holds projects, or one inside it but in no project,
`carrel' opens that library without asking, as the command line does."
  (let* ((top (make-temp-file "carrel-guess" t))
         (carrel-library-directory nil))
    (unwind-protect
        (progn
          (make-directory (expand-file-name "Lib/Proj/.carrel" top) t)
          (make-directory (expand-file-name "Lib/Notes/Old" top) t)
          (with-temp-file (expand-file-name "Lib/Proj/.carrel/project.json" top)
            (insert "{}"))
          (let ((default-directory (expand-file-name "Lib/" top)))
            (should (equal (carrel--guess-root) (expand-file-name "Lib/" top))))
          (let ((default-directory (expand-file-name "Lib/Notes/Old/" top)))
            (should (equal (carrel--guess-root) (expand-file-name "Lib/" top))))
          ;; Never a home folder, however many projects it holds.
          (let ((process-environment (cons (concat "HOME=" (expand-file-name "Lib" top))
                                           process-environment))
                (default-directory (expand-file-name "Lib/Notes/" top)))
            (should-not (carrel--guess-root)))
          (cl-letf (((symbol-function 'read-directory-name)
                     (lambda (&rest _) (error "Asked for the library"))))
            (let ((default-directory (expand-file-name "Lib/Notes/" top)))
              (call-interactively #'carrel)
              (should (derived-mode-p 'carrel-tree-mode))
              (should (equal (car (carrel-test--rows)) "Lib"))
              (kill-buffer))))
      (delete-directory top t))))

(ert-deftest carrel-test-guess-root-outside-projects-asks ()
  "Outside any project `carrel' asks, offering the version-control root,
and opens nothing by itself, as `carrel-library-directory' says."
  (let* ((top (file-name-as-directory (make-temp-file "carrel-guess" t)))
         (carrel-library-directory nil)
         (default-directory (expand-file-name "Notes/" top))
         (offered nil))
    (unwind-protect
        (progn
          (make-directory (expand-file-name ".git" top))
          (make-directory default-directory)
          (should (equal (carrel--guess-root) nil))
          (cl-letf (((symbol-function 'read-directory-name)
                     (lambda (_prompt dir &rest _) (setq offered dir) dir)))
            (carrel--read-root))
          (should (equal (file-name-as-directory (expand-file-name offered)) top))
          (let ((doc (documentation-property 'carrel-library-directory
                                             'variable-documentation t)))
            (should (string-match-p "asks" doc))
            (should-not (string-match-p "else the directory itself" doc)))
          ;; The README says what is offered as the docstring does.
          (let ((readme (carrel-test--readme)))
            (should (string-match-p "`Carrel library: `[^.]*version-control root" readme))
            (should-not (string-match-p "(offering the current folder)" readme))))
      (delete-directory top t))))

(ert-deftest carrel-test-first-run-creates-library ()
  "With no library known, M-x carrel asks for one and offers to create it."
  (let* ((top (make-temp-file "carrel-first" t))
         (default-directory (file-name-as-directory top))
         (carrel-library-directory nil)
         (asked nil))
    (unwind-protect
        (cl-letf (((symbol-function 'read-directory-name)
                   (lambda (prompt &rest _) (push prompt asked) (expand-file-name "Writing" top)))
                  ((symbol-function 'y-or-n-p)
                   (lambda (prompt) (push prompt asked) t)))
          (call-interactively #'carrel)
          (should (equal (reverse asked)
                         (list "Carrel library: "
                               (format "Create the library %s? "
                                       (abbreviate-file-name (expand-file-name "Writing" top))))))
          (should (file-directory-p (expand-file-name "Writing" top)))
          (should (derived-mode-p 'carrel-tree-mode))
          (should (equal (carrel-test--rows) '("Writing" "No project yet: press P to make one"))))
      (when (derived-mode-p 'carrel-tree-mode) (kill-buffer))
      (delete-directory top t))))

;;;; Live changes

(ert-deftest carrel-test-external-mv ()
  "A shell mv shows up in the tree, keeps point and expansion, and buffers follow."
  (carrel-test--with-library
    (carrel-test--project "Saga" "novel")
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri (carrel-test--path "Saga" "Chapters"))
                      :name "Part One")
    (carrel-test--file "Saga" "Chapters" "Part One" "Opening")
    (let ((buffer (carrel-test--edit (carrel-test--path "Saga" "Chapters" "Part One" "Opening.md") "typed")))
      (carrel-test--goto "Saga" "Chapters" "Part One" "Opening.md")
      (carrel-test--goto "Saga" "Research")
      (should (zerop (call-process "mv" nil nil nil
                                   (carrel-test--path "Saga" "Chapters" "Part One")
                                   (carrel-test--path "Saga" "Chapters" "Part 1"))))
      (carrel-test--wait (lambda () (carrel-test--row "Part 1")) "the moved folder in the tree")
      (should-not (carrel-test--row "Part One"))
      ;; Its rows follow, fetched once it is placed open.
      (carrel-test--wait (lambda () (carrel-test--row "Opening.md")) "its rows under the moved folder")
      (should (equal (plist-get (carrel--node-at-point) :title) "Research"))
      (carrel-test--wait (lambda () (equal (buffer-file-name buffer)
                                           (carrel-test--path "Saga" "Chapters" "Part 1" "Opening.md")))
                         "the buffer following the move")
      (should (buffer-modified-p buffer))
      (should (equal (with-current-buffer buffer (buffer-string)) "typed")))))

(ert-deftest carrel-test-external-rm-kills-clean-buffer ()
  "A file removed by another program closes its unmodified buffer."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (let ((buffer (find-file-noselect (carrel-test--path "My Poems" "Draft" "Spring.md"))))
      (delete-file (carrel-test--path "My Poems" "Draft" "Spring.md"))
      (carrel-test--wait (lambda () (not (buffer-live-p buffer))) "the buffer killed"))))

(defun carrel-test--shown-under (title &rest parts)
  "Return non-nil if a row titled TITLE shows below the row of PARTS."
  (let ((top (carrel--path-to-uri (apply #'carrel-test--path parts))))
    (save-excursion
      (goto-char (point-min))
      (cl-loop until (eobp)
               thereis (let ((node (carrel-test--node-on-line)))
                         (and (equal (plist-get node :title) title)
                              (not (equal (carrel--row-id) top))
                              (carrel--under-id-p (carrel--row-id) top)))
               do (forward-line 1)))))

(defun carrel-test--make-project-outside (name)
  "Make the Poetry project NAME on disk, with a poem in Draft, as another program would."
  (make-directory (carrel-test--path name ".carrel") t)
  (make-directory (carrel-test--path name "Draft") t)
  (write-region "{\"type\":\"poetry\",\"version\":1}" nil
                (carrel-test--path name ".carrel" "project.json"))
  (write-region "x" nil (carrel-test--path name "Draft" "Poem.md")))

(ert-deftest carrel-test-project-made-outside-opens ()
  "A project made outside after the first view opens as the first view shows one,
its first section's rows shown; a project the writer collapsed stays
collapsed across changes, refreshes and its library's reopening."
  (carrel-test--with-library
    (carrel-test--project "First" "poetry")
    (carrel-test--settled)
    (carrel-test--goto-row "First")
    (carrel-toggle)
    (should-not (carrel-test--shown-under "Draft" "First"))
    (carrel-test--make-project-outside "Second")
    (carrel-test--wait (lambda () (carrel-test--shown-under "Draft" "Second"))
                       "the new project's first section")
    (carrel-test--settled)
    (should (carrel-test--shown-under "YOUR POETRY" "Second"))
    (should-not (carrel-test--shown-under "PUBLICATIONS" "First"))
    (call-interactively #'carrel-refresh)
    (should-not (carrel-test--shown-under "Draft" "First"))
    (should (carrel-test--shown-under "Draft" "Second"))
    (goto-char (point-min))
    (carrel-toggle)
    (should-not (carrel-test--row "Second"))
    (goto-char (point-min))
    (carrel-toggle)
    (carrel-test--settled)
    (should (carrel-test--row "First"))
    (should-not (carrel-test--shown-under "Draft" "First"))
    (should (carrel-test--shown-under "Draft" "Second"))))

(ert-deftest carrel-test-folder-made-a-project-outside-opens ()
  "A folder that becomes a project when another program writes its marker
opens as a project made whole would: its first section's rows shown."
  (carrel-test--with-library
    (carrel-test--project "First" "poetry")
    (carrel-test--settled)
    (make-directory (carrel-test--path "Second" "Draft") t)
    (write-region "x" nil (carrel-test--path "Second" "Draft" "Poem.md"))
    (carrel-test--wait (lambda () (carrel-test--row "Second")) "the new folder's row")
    (carrel-test--settled)
    (make-directory (carrel-test--path "Second" ".carrel") t)
    (write-region "{\"type\":\"poetry\",\"version\":1}" nil
                  (carrel-test--path "Second" ".carrel" "project.json"))
    (carrel-test--wait (lambda () (carrel-test--shown-under "Draft" "Second"))
                       "the new project's first section")))

;;;; Drawing changes

(ert-deftest carrel-test-notifications-together-draw-once ()
  "Notifications applied together are drawn once, not once each."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--goto "My Poems" "Research")
    (let* ((draws 0)
           (count (lambda (&rest _) (cl-incf draws)))
           (research (carrel--path-to-uri (carrel-test--path "My Poems" "Research")))
           (node (carrel--node research)))
      (should node)
      (advice-add 'carrel--render :before count)
      (unwind-protect
          (progn
            ;; As one read of the pipe delivers them: one after the other,
            ;; with no wait between.
            (dotimes (i 5)
              (carrel--handle-notification
               carrel-test--conn 'carrel/didChange
               (list :changes (vector (list :type "created"
                                            :uri (format "%s/note-%d.md" research i)))
                     :updated (vector (plist-put (copy-sequence node) :summary
                                                 (format "%d files" (1+ i)))))))
            (carrel-test--settled))
        (advice-remove 'carrel--render count))
      (should (= draws 1))
      (should (string-suffix-p "Research  5 files" (carrel-test--row "Research"))))))

(ert-deftest carrel-test-collects-garbage-once-drawn ()
  "Garbage is collected, if due soon, once a change is drawn, not on its way."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Ode")
    (carrel-test--goto "My Poems" "Draft" "Ode.md")
    (carrel-test--settled)
    (let ((tree (current-buffer))
          (calls nil))
      (cl-flet ((record (&rest args)
                  (with-current-buffer tree
                    (push (list args carrel--pending carrel--queue (carrel-test--row "Dawn.md"))
                          calls))))
        (advice-add 'garbage-collect-maybe :before #'record)
        (unwind-protect
            (progn
              (write-region "" nil (carrel-test--path "My Poems" "Draft" "Dawn.md"))
              (carrel-test--wait (lambda () (carrel-test--row "Dawn.md")) "the new file shown")
              (carrel-test--settled)
              (carrel-test--wait (lambda () (nth 3 (car calls))) "a collection once drawn"))
          (advice-remove 'garbage-collect-maybe #'record)))
      ;; Only when half the allowance is used; only with nothing left to do.
      (dolist (call calls)
        (should (equal (car call) '(2)))
        (should (zerop (nth 1 call)))
        (should-not (nth 2 call))))))

(ert-deftest carrel-test-rows-of-a-big-folder-hash-apart ()
  "The rows of a thousand files in one folder get a thousand hash codes.
With a few dozen, every lookup of a row compares it with dozens of
others, and drawing a big folder takes many times longer."
  (carrel-test--with-library
    (let* ((test (hash-table-test carrel--rows))
           (hash (if (eq test 'equal) #'sxhash-equal (cadr (get test 'hash-table-test))))
           (codes (make-hash-table)))
      (dotimes (i 1000)
        (puthash (funcall hash (carrel--path-to-uri (carrel-test--path (format "Letter %04d.md" i))))
                 t codes))
      (should (> (hash-table-count codes) 990)))))

(ert-deftest carrel-test-many-new-rows-drawn-in-slices ()
  "A redraw that runs out of its slice draws the rest in the next ones."
  (carrel-test--with-library
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri carrel-test--lib) :name "Box")
    (dotimes (i 60)
      (write-region "" nil (carrel-test--path "Box" (format "Note %02d.md" i))))
    (let ((box (carrel--path-to-uri (carrel-test--path "Box")))
          (shown (lambda ()
                   (save-excursion
                     (goto-char (point-min))
                     (cl-loop while (re-search-forward "Note [0-9][0-9]\\.md" nil t) count t)))))
      (carrel-test--wait (lambda ()
                           (= 60 (length (plist-get (aref (carrel--request carrel-test--conn 'carrel/tree
                                                                           (list :uri box :depth 1))
                                                          0)
                                                    :children))))
                         "the server to list the files")
      (carrel-test--settled)
      (puthash box t carrel--expanded)
      (carrel--load)
      ;; No time at all: each slice draws the few lines it may.
      (let ((carrel--render-slice 0))
        (carrel--render-soon)
        (carrel--run-queue (current-buffer))
        (should (< 0 (funcall shown) 60))
        (should carrel--queue)
        (carrel-test--wait (lambda () (= (funcall shown) 60)) "every row drawn")
        (carrel-test--settled))
      (should (equal (carrel-test--rows)
                     (progn (carrel--render t) (carrel-test--rows)))))))

(ert-deftest carrel-test-change-draws-only-its-rows ()
  "A new file inserts its row; rows the change does not touch are not drawn again."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (dolist (name '("Ode" "Elegy" "Haiku" "Sonnet"))
      (carrel-test--file "My Poems" "Draft" name))
    (carrel-test--goto "My Poems" "Draft" "Ode.md")
    (let ((edits nil))
      (cl-flet ((record (beg end old-length)
                  (push (list (buffer-substring-no-properties beg end) old-length) edits)))
        (add-hook 'after-change-functions #'record nil t)
        (unwind-protect
            (progn
              (write-region "" nil (carrel-test--path "My Poems" "Draft" "Dawn.md"))
              (carrel-test--wait (lambda () (carrel-test--row "Dawn.md")) "the new file shown")
              (carrel-test--settled))
          (remove-hook 'after-change-functions #'record t)))
      (should (seq-some (lambda (edit) (string-match-p "Dawn\\.md" (car edit))) edits))
      (dolist (edit edits)
        (should-not (string-match-p "Ode\\|Elegy\\|Haiku\\|Sonnet\\|Ready\\|Research" (car edit)))
        ;; What is replaced is a row's line at most, never the buffer.
        (should (< (cadr edit) 40))))
    (should (equal (plist-get (carrel--node-at-point) :title) "Ode.md"))))

;; Not a timing: the size of the stretch `carrel--patch' weighs by key,
;; which is what a change costs in a folder of thousands.
(ert-deftest carrel-test-change-weighs-only-the-rows-it-moves ()
  "A new file in an open folder of 400 weighs its own row, not the rows
between it and its folders, whose counts change."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (let ((folder (carrel-test--path "My Poems" "Draft" "Letters")))
      (make-directory folder)
      (dotimes (i 400)
        (write-region "" nil (expand-file-name (format "Letter %04d.md" i) folder)))
      (carrel-test--wait (lambda ()
                           (= 400 (length (plist-get (aref (carrel--request
                                                            carrel-test--conn 'carrel/tree
                                                            (list :uri (carrel--path-to-uri folder) :depth 1))
                                                           0)
                                                     :children))))
                         "the server to list the files")
      (carrel-test--settled)
      (carrel-test--goto "My Poems" "Draft" "Letters" "Letter 0000.md")
      (carrel-test--settled)
      (carrel--render)
      (let ((sizes nil))
        (cl-flet ((record (&optional size) (push (or size 0) sizes)))
          (advice-add 'carrel--id-table :before #'record)
          (unwind-protect
              (progn
                (write-region "" nil (expand-file-name "Letter 0200a.md" folder))
                (carrel-test--wait (lambda () (carrel-test--row "Letter 0200a.md")) "the new file shown")
                (carrel-test--settled))
            (advice-remove 'carrel--id-table #'record)))
        (should sizes)
        (should (< (apply #'max sizes) 10)))
      (should (equal (carrel-test--rows) (progn (carrel--render t) (carrel-test--rows)))))))

;;;; Fetching lazily

(ert-deftest carrel-test-first-view-is-lazy ()
  "Opening asks the roots at depth 1 and each project at depth 2, nothing
more, and shows the projects and their first section expanded."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--project "Saga" "novel")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri (carrel-test--path "Saga" "Chapters"))
                      :name "Part One")
    (carrel-test--file "Saga" "Chapters" "Part One" "Opening")
    (remove-hook 'kill-buffer-hook #'carrel--tree-killed t)
    (kill-buffer)
    (let ((sent (carrel-test--recording (carrel--tree-buffer carrel-test--conn t))))
      (should (equal (carrel-test--tree-requests sent)
                     (list '(:depth 1)
                           (list :uri (carrel--path-to-uri (carrel-test--path "My Poems")) :depth 2)
                           (list :uri (carrel--path-to-uri (carrel-test--path "Saga")) :depth 2)))))
    (with-current-buffer (carrel--tree-buffer carrel-test--conn)
      (let ((rows (carrel-test--rows)))
        (should (equal (seq-take rows 4) '("Writing" "My Poems" "YOUR POETRY" "All")))
        (should (member "Draft" rows))
        (should-not (member "Spring.md" rows))
        (should (equal (seq-take (member "PUBLICATIONS" rows) 3) '("PUBLICATIONS" "TRASH" "Saga")))
        (should (member "Chapters" rows))
        (should-not (member "Part One" rows))
        (should (equal (car (last rows)) "TRASH"))))))

(ert-deftest carrel-test-first-view-asks-projects-together ()
  "Opening asks for every project before it waits for the first one's answer."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--project "Saga" "novel")
    (remove-hook 'kill-buffer-hook #'carrel--tree-killed t)
    (kill-buffer)
    (let ((events nil))
      (cl-flet ((sent (_conn &rest message)
                  (when (plist-get message :id) (push 'asked events)))
                (read (_conn message)
                  (when (plist-get message :id) (push 'answered events))))
        (advice-add 'jsonrpc-connection-send :before #'sent)
        (advice-add 'jsonrpc-connection-receive :before #'read)
        (unwind-protect (carrel--tree-buffer carrel-test--conn t)
          (advice-remove 'jsonrpc-connection-send #'sent)
          (advice-remove 'jsonrpc-connection-receive #'read)))
      ;; The roots, then both projects at once.
      (should (equal (nreverse events) '(asked answered asked asked answered answered))))))

(ert-deftest carrel-test-changes-fetch-only-shown-folders ()
  "An outside change in an expanded folder is patched in with no fetch;
a collapsed folder learns its count from the notification alone."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--goto "My Poems" "Draft")
    (let ((sent (carrel-test--recording (carrel-open))))
      (should (equal (carrel-test--tree-requests sent)
                     (list (list :uri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft"))
                                 :depth 1)))))
    (let ((sent (carrel-test--recording
                  (write-region "" nil (carrel-test--path "My Poems" "Research" "notes.md"))
                  (carrel-test--wait (lambda () (equal (carrel-test--row "Research")
                                                       "      🔍 Research  1 file · 0 words"))
                                     "Research counted")
                  (carrel-test--settled))))
      (should (null (carrel-test--tree-requests sent))))
    (let* ((notices 0)
           (count (lambda (_conn method &rest _)
                    (when (eq method 'carrel/didChange) (cl-incf notices))))
           (sent (progn
                   (advice-add 'carrel--handle-notification :before count)
                   (unwind-protect
                       (carrel-test--recording
                         (write-region "" nil (carrel-test--path "My Poems" "Draft" "Dawn.md"))
                         (carrel-test--wait (lambda () (carrel-test--row "Dawn.md")) "the new file shown")
                         (carrel-test--settled))
                     (advice-remove 'carrel--handle-notification count)))))
      (should (> notices 0))
      ;; The row comes placed in the notification: Draft is not fetched.
      (should (null (carrel-test--tree-requests sent))))
    (should (equal (carrel-test--row "Draft") "      📝 Draft  1 file · 0 words"))
    (should (equal (carrel-test--row "My Poems") "  🗂 My Poems  2 files · 0 words"))))

(ert-deftest carrel-test-outside-changes-patched-in-order ()
  "An outside create, rename and delete in an expanded folder are
patched in place, in the folder's order, with no `carrel/tree'."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Winter")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--settled)
    (let* ((draft (carrel--path-to-uri (carrel-test--path "My Poems" "Draft")))
           (listed (lambda ()
                     (mapcar (lambda (id) (plist-get (carrel--node id) :title)) (gethash draft carrel--kids))))
           (sent (carrel-test--recording
                   (write-region "" nil (carrel-test--path "My Poems" "Draft" "Autumn.md"))
                   (carrel-test--wait (lambda () (carrel-test--row "Autumn.md")) "Autumn.md shown")
                   (should (equal (funcall listed) '("Autumn.md" "Spring.md" "Winter.md")))
                   (rename-file (carrel-test--path "My Poems" "Draft" "Winter.md")
                                (carrel-test--path "My Poems" "Draft" "Baker.md"))
                   (carrel-test--wait (lambda () (carrel-test--row "Baker.md")) "Baker.md shown")
                   (should (equal (funcall listed) '("Autumn.md" "Baker.md" "Spring.md")))
                   (delete-file (carrel-test--path "My Poems" "Draft" "Autumn.md"))
                   (carrel-test--wait (lambda () (not (carrel-test--row "Autumn.md"))) "Autumn.md gone")
                   (should (equal (funcall listed) '("Baker.md" "Spring.md")))
                   (carrel-test--settled))))
      (should (null (carrel-test--tree-requests sent)))
      (let ((rows (carrel-test--rows)))
        (should (< (cl-position "Baker.md" rows :test #'equal) (cl-position "Spring.md" rows :test #'equal)))))))

(ert-deftest carrel-test-file-made-while-its-folder-is-fetched-shows ()
  "A file another program makes while its folder's listing is on its way shows.
The listing's answer is held a second by a relay, as a long one is on
a loaded machine: the change comes right after the stale listing."
  (skip-unless (executable-find "python3"))
  (let ((carrel-server-command
         (list "python3" (expand-file-name "../../vim/tests/pausing_relay.py" carrel-test--here)
               "Spring.md" "1.0" (or (getenv "CARREL") "carrel") "lsp")))
    (carrel-test--with-library
      (carrel-test--project "My Poems" "poetry")
      (carrel-test--file "My Poems" "Draft" "Spring")
      (carrel-test--goto "My Poems" "Draft")
      (carrel-test--settled)
      (carrel-toggle)
      (write-region "" nil (carrel-test--path "My Poems" "Draft" "Autumn.md"))
      (carrel-test--wait (lambda () (carrel-test--row "Autumn.md")) "Autumn.md shown")
      (carrel-test--wait (lambda () (carrel-test--row "Spring.md")) "Spring.md shown")
      (let ((rows (carrel-test--rows)))
        (should (< (cl-position "Autumn.md" rows :test #'equal) (cl-position "Spring.md" rows :test #'equal)))))))

(ert-deftest carrel-test-collapsed-section-shows-no-stale-rows ()
  "A change under a collapsed section is not fetched, and reopening
the section shows the folder as it is now."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--goto-row "YOUR POETRY")
    (carrel-toggle)
    (should-not (carrel-test--row "Spring.md"))
    (let ((sent (carrel-test--recording
                  (delete-file (carrel-test--path "My Poems" "Draft" "Spring.md"))
                  (carrel-test--wait (lambda () (equal (plist-get (carrel--node
                                                                   (carrel--path-to-uri
                                                                    (carrel-test--path "My Poems" "Draft")))
                                                                  :summary)
                                                       "1 file · 0 words"))
                                     "Draft's count")
                  (carrel-test--settled))))
      (should (null (carrel-test--tree-requests sent))))
    (carrel-test--goto-row "YOUR POETRY")
    (carrel-toggle)
    (carrel-test--settled)
    (should (carrel-test--row "Summer.md"))
    (should-not (carrel-test--row "Spring.md"))))

(ert-deftest carrel-test-changes-refetch-expanded-all ()
  "A change in a project refetches its \"All\" when expanded, and nothing
collapsed; a row under \"All\" has an identity of its own."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--goto "My Poems" "Draft")
    (should (carrel--goto-id (concat (carrel--path-to-uri (carrel-test--path "My Poems")) "/.carrel/all")))
    (carrel-open)
    (let ((sent (carrel-test--recording
                  (write-region "" nil (carrel-test--path "My Poems" "Draft" "Dawn.md"))
                  (carrel-test--wait (lambda () (carrel-test--row "Dawn.md")) "the file under All")
                  (carrel-test--settled))))
      (should (carrel-test--tree-requests sent))
      (dolist (params (carrel-test--tree-requests sent))
        (should (equal params (list :uri (concat (carrel--path-to-uri (carrel-test--path "My Poems"))
                                                 "/.carrel/all")
                                    :depth 1)))))
    (goto-char (point-min))
    (search-forward "Dawn.md")
    (should (equal (plist-get (carrel--node-at-point) :uri)
                   (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" "Dawn.md"))))
    (should-not (equal (carrel--row-id) (plist-get (carrel--node-at-point) :uri)))
    (should (equal (carrel-test--header) "Writing › My Poems › All › Dawn.md"))))

(ert-deftest carrel-test-onboarding-line ()
  "A library without projects says how to make one, as its last line,
after its own folders and files; P there makes the first."
  (carrel-test--with-library
    (should (equal (carrel-test--rows) '("Writing" "No project yet: press P to make one")))
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri carrel-test--lib) :name "Notes")
    (carrel-test--file "ideas")
    (let ((rows (carrel-test--rows)))
      (should (equal (length rows) 4))
      (should (equal (car rows) "Writing"))
      (should (member "Notes" rows))
      (should (member "ideas.md" rows))
      (should (equal (car (last rows)) "No project yet: press P to make one")))
    (goto-char (point-max))
    (beginning-of-line)
    (should (looking-at-p "  No project yet"))
    (should (eq (get-text-property (line-end-position 0) 'face) nil))
    (should (eq (get-text-property (+ (point) 4) 'face) 'carrel-count))
    (should (equal (carrel-test--header) "Writing"))
    (carrel-test--answering '("Saga" "Novel")
      (call-interactively (key-binding "P")))
    (should-not (member "No project yet: press P to make one" (carrel-test--rows)))
    (should (equal (plist-get (carrel--node-at-point) :title) "Saga"))
    (should (carrel-test--row "YOUR NOVEL"))
    (should (carrel-test--row "Chapters"))))

(ert-deftest carrel-test-onboarding-line-return-makes-project ()
  "RET on the line that says to make a project makes one, in that library."
  (carrel-test--with-library
    (goto-char (point-max))
    (beginning-of-line)
    (should (looking-at-p "  No project yet"))
    (carrel-test--answering '("Saga" "Novel")
      (call-interactively (key-binding (kbd "RET"))))
    (should (file-exists-p (carrel-test--path "Saga" ".carrel" "project.json")))
    (should (equal (plist-get (carrel--node-at-point) :title) "Saga"))
    (should (carrel-test--row "Writing"))
    (should-not (member "No project yet: press P to make one" (carrel-test--rows)))))

;;;; Messages that arrive with a reply

(ert-deftest carrel-test-reads-messages-after-reply ()
  "A `carrel/didChange' that arrives in the same chunk as a reply is read.
The server writes a command's changes right after its reply; when
both come in one read, the binder must not wait for more output."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Morning")
    (carrel-test--goto "My Poems" "Draft" "Morning.md")
    (let ((buffer (find-file-noselect (carrel-test--path "My Poems" "Draft" "Morning.md")))
          (read-process-output-max (* 1024 1024)))
      ;; Holding Emacs still after sending lets the reply and the
      ;; notification reach the pipe together, so one read takes both.
      (cl-letf (((symbol-function 'carrel-test--hold)
                 (lambda (&rest _) (call-process "sleep" nil nil nil "0.3"))))
        (advice-add 'jsonrpc-connection-send :after #'carrel-test--hold)
        (unwind-protect
            (with-current-buffer buffer
              (carrel-test--answering '("Dawn")
                (call-interactively #'carrel-rename-file)))
          (advice-remove 'jsonrpc-connection-send #'carrel-test--hold)))
      (carrel-test--wait (lambda () (carrel-test--row "Dawn.md")) "the renamed row in the binder")
      (should-not (carrel-test--row "Morning.md")))))

;;;; Commands on the visited file

(ert-deftest carrel-test-file-commands ()
  "carrel-rename-file, -move-file, -reveal and -delete-file act on the visited file."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (let ((tree (current-buffer))
          (buffer (carrel-test--edit (carrel-test--path "My Poems" "Draft" "Spring.md") "one")))
      (with-current-buffer buffer
        (carrel-test--answering '("Spring Song")
          (call-interactively #'carrel-rename-file))
        (should (equal (carrel-test--asked "Rename to: ") "Spring.md"))
        (should (equal buffer-file-name (carrel-test--path "My Poems" "Draft" "Spring Song.md")))
        (carrel-test--answering '("Writing › My Poems › Ready")
          (call-interactively #'carrel-move-file))
        (should (equal buffer-file-name (carrel-test--path "My Poems" "Ready" "Spring Song.md")))
        (should (buffer-modified-p))
        (save-buffer)
        (call-interactively #'carrel-reveal)
        (should (eq (current-buffer) tree))
        (should (equal (carrel-test--header)
                       "Writing › My Poems › Ready › Spring Song.md")))
      (with-current-buffer buffer
        (carrel-test--answering '("Delete")
          (call-interactively #'carrel-delete-file)))
      ;; Followed into the Trash, so a habitual save cannot recreate the old file.
      (should (equal (buffer-file-name buffer) (carrel-test--path "My Poems" "Trash" "Spring Song.md")))
      (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Spring Song.md")))
      (with-current-buffer tree
        (should-not (carrel-test--row "Spring Song.md"))))))

(ert-deftest carrel-test-events-buffer ()
  "carrel-events-buffer shows the JSON-RPC traffic once the log is on."
  (let ((carrel-events-buffer-size 2000000))
    (carrel-test--with-library
      (carrel-events-buffer carrel-test--conn)
      (with-current-buffer (jsonrpc-events-buffer carrel-test--conn)
        (should (string-match-p "carrel/tree" (buffer-string)))
        (should (string-match-p "initialize" (buffer-string)))))))

(ert-deftest carrel-test-events-not-logged-by-default ()
  "By default no message is written to the log: pretty-printing each costs."
  (carrel-test--with-library
    ;; The buffer outlives earlier connections of the same name.
    (with-current-buffer (jsonrpc-events-buffer carrel-test--conn)
      (let ((inhibit-read-only t)) (erase-buffer)))
    (carrel-test--project "My Poems" "poetry")
    (with-current-buffer (jsonrpc-events-buffer carrel-test--conn)
      (should-not (string-match-p "carrel" (buffer-string))))))

;;;; Eglot

(defun carrel-test--readme ()
  "Return the text of the package's README."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "../README.md" carrel-test--here))
    (buffer-string)))

(defun carrel-test--readme-eglot-form ()
  "Return the README's eglot form, read as a writer would paste it.
It names plain `carrel'; run.sh puts the server under test on PATH so."
  (with-temp-buffer
    (insert (carrel-test--readme))
    (goto-char (point-min))
    (re-search-forward "^(with-eval-after-load 'eglot")
    (forward-line 0)
    (read (current-buffer))))

(defun carrel-test--eglot-dir ()
  "Return the folder of Debian's elpa-eglot; skip the test without it."
  (let ((dir (getenv "CARREL_EGLOT_DIR")))
    ;; run.sh exports it empty when eglot is missing, and "" names the current folder.
    (unless (and dir (not (string-empty-p dir)) (file-directory-p dir))
      (ert-skip "Debian's elpa-eglot is not installed"))
    dir))

;;;; Package quality

(ert-deftest carrel-test-byte-compiles-without-warnings ()
  "carrel.el byte-compiles with `byte-compile-error-on-warn'."
  (let* ((dir (make-temp-file "carrel-bc" t))
         (file (expand-file-name "carrel.el" dir))
         (byte-compile-error-on-warn t))
    (copy-file carrel-test--source file)
    (unwind-protect
        (should (byte-compile-file file))
      (delete-directory dir t))))

(ert-deftest carrel-test-checkdoc-clean ()
  "carrel.el passes checkdoc."
  (require 'checkdoc)
  (let ((warnings nil))
    (cl-letf (((symbol-function 'checkdoc-error)
               (lambda (point msg)
                 (push (format "carrel.el:%d: %s" (line-number-at-pos point) msg)
                       warnings))))
      (checkdoc-file carrel-test--source))
    (should (equal (reverse warnings) nil))))

(ert-deftest carrel-test-package-lint-clean ()
  "carrel.el passes package-lint."
  (let ((dir (getenv "CARREL_PACKAGE_LINT_DIR")))
    ;; Empty when package-lint is missing, and "" names the current folder.
    (skip-unless (and dir (not (string-prefix-p ":" dir)) (not (string-empty-p dir))
                      (file-directory-p (car (split-string dir ":")))))
    (dolist (d (split-string dir ":")) (add-to-list 'load-path d))
    (require 'package-lint)
    (with-temp-buffer
      (insert-file-contents carrel-test--source)
      (emacs-lisp-mode)
      (let ((issues (seq-remove
                     ;; package-lint 0.16 (Debian) predates Emacs 28.1's
                     ;; release and calls any dependency on it uninstallable.
                     (lambda (issue)
                       (string-match-p "uninstallable in all released Emacs" (nth 3 issue)))
                     (package-lint-buffer))))
        (should (equal issues nil))))))

(provide 'carrel-tests)
;;; carrel-tests.el ends here
