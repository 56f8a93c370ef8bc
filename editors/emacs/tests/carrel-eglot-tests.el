;;; carrel-eglot-tests.el --- ERT tests of the outline through stock eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el, whose helpers these use.
;; Stock eglot, registered by the README's form, asks the server for
;; textDocument/documentSymbol: imenu lists the headings of the open
;; file.  Eglot 1.9 shows only their names, so the words of each section
;; (the symbols' `detail') are read from the same request sent on
;; eglot's own connection.  Without markdown-mode (not installed here) a
;; .md file opens in fundamental-mode in batch Emacs, so the file is put
;; in text-mode, the other mode the README's form names.

;;; Code:

(require 'carrel-tests)

(defconst carrel-test--chapter
  "# Morning\nThe sun came up slowly.\n\n# Evening\nIt went down again.\n"
  "Draft/Chapter.md on disk: two headings, five words and four below them.")

(defconst carrel-test--scenes
  "INT. KITCHEN - DAY\n\nAda pours the coffee.\n\nEXT. GARDEN - NIGHT\n\nRain.\n"
  "Draft/Scenes.fountain on disk: two scene headings.")

;; fountain-mode is not installed here.  The real one derives from
;; text-mode, which the README's form names; so does this stand-in.  The
;; server takes the format from the file's extension, not from the mode.
(unless (fboundp 'fountain-mode)
  (define-derived-mode fountain-mode text-mode "Fountain"
    "Stand-in for fountain-mode in these tests."))

(defmacro carrel-test--with-eglot-file (name text mode &rest body)
  "Run BODY in Draft/NAME of a poetry project, managed by stock eglot.
The file holds TEXT and its buffer is put in MODE.  Eglot is set up
by the README's form.  Skip without Debian's elpa-eglot."
  (declare (indent 3) (debug t))
  `(progn
     (add-to-list 'load-path (carrel-test--eglot-dir))
     (require 'eglot)
     (carrel-test--with-library
       (carrel-test--project "My Poems" "poetry")
       (let* ((eglot-server-programs (copy-sequence eglot-server-programs))
              (lib carrel-test--lib)
              (project-find-functions (list (lambda (_dir) (cons 'transient lib))))
              (file (carrel-test--path "My Poems" "Draft" ,name)))
         (with-temp-file file (insert ,text))
         (eval (carrel-test--readme-eglot-form) t)
         (with-current-buffer (find-file-noselect file)
           (,mode)
           (unwind-protect
               (progn
                 (eglot-ensure)
                 ;; eglot-ensure connects after the command that called it.
                 (run-hooks 'post-command-hook)
                 (carrel-test--wait #'eglot-current-server "eglot to connect")
                 ,@body)
             (when (eglot-current-server)
               (eglot-shutdown (eglot-current-server)))))))))

(defmacro carrel-test--with-eglot-chapter (&rest body)
  "Run BODY in Draft/Chapter.md, holding `carrel-test--chapter', under eglot.
The buffer is in text-mode: without markdown-mode (not installed
here) batch Emacs opens .md files in fundamental-mode."
  (declare (indent 0) (debug t))
  `(carrel-test--with-eglot-file "Chapter.md" carrel-test--chapter text-mode ,@body))

(defun carrel-test--imenu-headings ()
  "Return imenu's entries for this buffer as (NAME . HEADING-LINE), afresh."
  ;; What imenu's *Rescan* does: forget the index it made before.
  (setq imenu--index-alist nil)
  (let ((headings nil))
    (cl-labels ((walk (entries)
                  (dolist (entry entries)
                    (cond ((equal entry imenu--rescan-item))
                          ((imenu--subalist-p entry) (walk (cdr entry)))
                          (t (push (cons (car entry)
                                         (save-excursion
                                           (goto-char (cdr entry))
                                           (buffer-substring-no-properties
                                            (point) (line-end-position))))
                                   headings))))))
      (walk (imenu--make-index-alist t)))
    (nreverse headings)))

(defun carrel-test--outline-words ()
  "Return (NAME . DETAIL) of each top symbol eglot's server gives this buffer.
It is the request `eglot-imenu' sends, on eglot's connection."
  (mapcar (lambda (symbol) (cons (plist-get symbol :name) (plist-get symbol :detail)))
          (jsonrpc-request (eglot-current-server) :textDocument/documentSymbol
                           (list :textDocument (eglot--TextDocumentIdentifier)))))

(ert-deftest carrel-test-eglot-outline-lists-headings ()
  "The README's eglot form makes imenu list the file's headings, with words.
Imenu jumps to each heading's line; each section's words come in
the symbols' detail."
  (carrel-test--with-eglot-chapter
    (should (equal (carrel-test--imenu-headings)
                   '(("Morning" . "# Morning") ("Evening" . "# Evening"))))
    (should (equal (carrel-test--outline-words)
                   '(("Morning" . "5 words") ("Evening" . "4 words"))))))

(ert-deftest carrel-test-eglot-outline-follows-unsaved-edits ()
  "An unsaved edit reaches the server through eglot and changes the outline.
The file on disk keeps its text; the outline is the buffer's."
  (carrel-test--with-eglot-chapter
    (goto-char (point-max))
    (insert "Stars came out.\n\n# Night\nDark.\n")
    (goto-char (point-min))
    (search-forward "slowly")
    (insert " and red")
    ;; Eglot sends didChange once Emacs is idle, which batch Emacs never is:
    ;; run the timer it set, as going idle would.
    (should eglot--change-idle-timer)
    (timer-event-handler eglot--change-idle-timer)
    (should (equal (carrel-test--outline-words)
                   '(("Morning" . "7 words") ("Evening" . "7 words") ("Night" . "1 word"))))
    (should (equal (mapcar #'car (carrel-test--imenu-headings)) '("Morning" "Evening" "Night")))
    (should (buffer-modified-p))
    (let ((file buffer-file-name))
      (should (equal (with-temp-buffer (insert-file-contents file) (buffer-string))
                     carrel-test--chapter)))))

(ert-deftest carrel-test-eglot-outline-fountain-scenes ()
  "In a Fountain file, imenu lists the scenes, each with its words."
  (carrel-test--with-eglot-file "Scenes.fountain" carrel-test--scenes fountain-mode
    (should (equal (carrel-test--imenu-headings)
                   '(("INT. KITCHEN - DAY" . "INT. KITCHEN - DAY")
                     ("EXT. GARDEN - NIGHT" . "EXT. GARDEN - NIGHT"))))
    (should (equal (carrel-test--outline-words)
                   '(("INT. KITCHEN - DAY" . "4 words") ("EXT. GARDEN - NIGHT" . "1 word"))))))

(ert-deftest carrel-test-eglot-links ()
  "Through stock eglot, a link goes to its file, the file lists its links,
and a link that leads nowhere is a Flymake warning from eglot."
  (carrel-test--with-eglot-file "Scene.md" "Met [Ada](Ada.md) and [[Nobody]].\n" text-mode
    (let ((ada (carrel-test--path "My Poems" "Draft" "Ada.md"))
          (scene buffer-file-name)
          (file-of (lambda (x) (xref-location-group (xref-item-location x)))))
      (with-temp-file ada (insert "# Ada\n"))
      (search-forward "[Ad")
      (carrel-test--wait (lambda () (xref-backend-definitions 'eglot "LSP identifier at point"))
                         "eglot's definition of the link")
      (should (equal (mapcar file-of (xref-backend-definitions 'eglot "LSP identifier at point"))
                     (list ada)))
      ;; The broken link to Ada.md, made before it, goes at the next change.
      (goto-char (point-max))
      (insert "\n")
      (timer-event-handler eglot--change-idle-timer)
      (flymake-start)
      (let ((from-eglot (lambda () (seq-filter (lambda (d) (eq (flymake-diagnostic-backend d)
                                                               'eglot-flymake-backend))
                                               (flymake-diagnostics)))))
        (carrel-test--wait (lambda () (= (length (funcall from-eglot)) 1)) "eglot's diagnostics")
        (should (equal (mapcar #'flymake-diagnostic-text (funcall from-eglot))
                       '("carrel: Nothing in the library is called “Nobody”."))))
      (with-current-buffer (find-file-noselect ada)
        (text-mode)
        (eglot-ensure)
        (run-hooks 'post-command-hook)
        (carrel-test--wait #'eglot-current-server "eglot to manage Ada.md")
        (let ((references (xref-backend-references 'eglot "LSP identifier at point")))
          (should (equal (mapcar file-of references) (list scene)))
          (should (equal (mapcar (lambda (x) (xref-location-line (xref-item-location x))) references)
                         '(1))))))))

(ert-deftest carrel-test-eglot-links-warned-once ()
  "A buffer managed by eglot shows each broken link once, whichever server came first.
Eglot's Flymake backend already reports the server's warnings, so
the binder's own server, started after eglot, adds none."
  (carrel-test--with-eglot-file "Scene.md" "See [[Nobody]].\n" text-mode
    (let ((scene (current-buffer))
          (once (lambda ()
                  (flymake-start)
                  (carrel-test--wait (lambda () (flymake-diagnostics)) "the broken link")
                  ;; Both would have answered by now.
                  (sleep-for 0.3)
                  (accept-process-output nil 0.2)
                  (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))))
      (should (equal (funcall once) '("carrel: Nothing in the library is called “Nobody”.")))
      (let ((old carrel-test--conn))
        (kill-buffer (carrel--tree-buffer old))
        (carrel-test--wait (lambda () (not (jsonrpc-running-p old))) "the binder's server to stop"))
      (carrel carrel-test--lib)
      (setq carrel-test--conn (carrel--connection-for carrel-test--lib))
      (with-current-buffer scene
        (should (eq (car carrel--document) carrel-test--conn))
        (should (equal (funcall once) '("carrel: Nothing in the library is called “Nobody”.")))))))

(provide 'carrel-eglot-tests)
;;; carrel-eglot-tests.el ends here
